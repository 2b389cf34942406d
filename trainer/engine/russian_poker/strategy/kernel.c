/* The exact advisor's draw kernel: for each kept set of an exchange, the sum over every card-level
   draw of the best stand after it (fold, bet and buy the game when that pays, bet and insure).

   Built when the package is installed, as the extension module `_kernel` (and `_kernel_v3` for
   x86-64-v3 processors) by setup.py through kernel_module.c, and loaded by kernel.py with ctypes;
   where the install had no C compiler, or with TRAINER_ADVISOR_KERNEL=off, the advisor values draws
   with NumPy (solver.py), which the tests compare this kernel against to the last chip.

   A *unit* is a rank class of draws for one kept set (every draw with the same ranks, any suits; the
   draws that make the player a flush left out) or one flush draw. A unit's final strength is fixed,
   and what depends on the draw's ranks only is counted once: the dealer's hidden hands below / at
   most / without a game (inclusion-exclusion tables of counting.py) and the buy margin of every rank
   set he may hold without a game (buying.py). What depends on a draw's suits depends on it only
   through the *pattern* of the class's ranks it takes in each suit (at most 32 a suit): the dealer
   flushes it blocks (up-card suit), and the suited dealer hands whose bought card may complete a
   flush (any suit). The draws of a class are counted per pattern (a product over its ranks), so a
   class whose best stand is the bet for every pattern, or never the bet, is summed without walking
   its draws; a suited group whose buy pays whatever the pattern is summed in closed form. The rest
   (rare) is walked draw by draw.

   Every quantity is a whole number: results in units times hidden hands times deck cards. */

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

typedef int64_t i64;

typedef struct {
    const i64 *avail;      /* [13] pool cards of each rank */
    const i64 *pool_suit;  /* [4] ranks of the pool's cards of each suit (13-bit masks) */
    i64 up_suit;
    i64 ak_floor;
    const double *cum;     /* dealer count tables (counting.py) */
    const uint16_t *index; /* [rows * width] */
    i64 width;
    const i64 *axis;       /* every dealer strength, ascending */
    i64 n_axis;
    const i64 *tau_row;    /* [8192] table row of a set of <= 3 up-suit ranks (-1 otherwise) */
    const i64 *sq_flush;   /* [8192] flush strength of four up-suit ranks and the up-card */
    const i64 *sq_rank;    /* [8192] their strength as ranks */
    const i64 *flush5;     /* [8192] strength of a five-card flush of these ranks */
    i64 n_sets;            /* no-game rank sets (buying.py); 0 when the game is not sold */
    const i64 *set_mask;
    const i64 *set_ranks;  /* [n_sets * 4] */
    const i64 *after;      /* [n_sets * 13] */
    const i64 *after_flush;
    const i64 *flush_hand; /* [n_sets] 1: its four up-suit cards are in the pool (a dealer flush) */
    const i64 *after_sorted;
    i64 n_after;
    const i64 *flush_sorted;
    i64 n_flush;
    i64 n_groups;          /* suited groups (buying.py BuyTables) */
    const i64 *g_set, *g_suit, *g_count, *g_completers, *g_rho, *g_held;
    const i64 *out;        /* [strengths * 8] Outcomes (payoffs.py) */
    i64 fee;
    i64 odds;
} Ctx;

typedef struct {
    i64 k;                 /* cards drawn */
    i64 n_opt;             /* kept sets */
    const i64 *kept;       /* [n_opt * 5] kept cards, -1 padded */
    const i64 *flush_suit; /* [n_opt] suit of a flush the draw can make (-1 none, 4 any) */
    const i64 *counts;     /* [classes * 13] rank classes of k cards */
    const i64 *sig_start, *sig_stop; /* [classes] the class's inclusion-exclusion terms */
    const i64 *sig_row, *sig_single, *sig_coef;
    const i64 *class_of;   /* [8192] class of k distinct ranks */
    i64 n_units;           /* class units, ascending strength */
    const i64 *u_class, *u_option, *u_strength;
    i64 hands, deck;
    i64 *total;            /* out: [n_opt] */
    i64 threads;           /* at most this many threads share the work */
    i64 bound;             /* 1: a quick upper bound of each sum instead (`rp_bound`) */
} Exchange;

#define MAX_SETS 512
#define MAX_GROUPS 4096

static i64 cmp_result(i64 p, i64 d, i64 win, i64 tie, i64 lose) {
    return p > d ? win : (p < d ? lose : tie);
}

static i64 lower(const i64 *a, i64 n, i64 x) { /* entries < x */
    i64 lo = 0, hi = n;
    while (lo < hi) {
        i64 mid = (lo + hi) / 2;
        if (a[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static i64 upper(const i64 *a, i64 n, i64 x) { /* entries <= x */
    i64 lo = 0, hi = n;
    while (lo < hi) {
        i64 mid = (lo + hi) / 2;
        if (a[mid] <= x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static int popcount(unsigned x) {
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
}

static i64 table(const Ctx *c, i64 row, i64 j) {
    const uint16_t *ix = c->index + row * c->width;
    return (i64)(c->cum[ix[j]] - c->cum[ix[0]]);
}

/* Hidden hands of a draw class's rank part below strength s (at most s with `inclusive`). */
static i64 rank_count(const Ctx *c, const Exchange *x, i64 cls, i64 s, int inclusive, i64 j) {
    i64 sum = 0;
    for (i64 e = x->sig_start[cls]; e < x->sig_stop[cls]; e++) {
        i64 v;
        if (x->sig_row[e] >= 0) v = table(c, x->sig_row[e], j);
        else v = inclusive ? x->sig_single[e] <= s : x->sig_single[e] < s;
        sum += x->sig_coef[e] * v;
    }
    return sum;
}

/* `rank_count` below s and at most s at once (positions j_lt, j_le): one pass over the terms. */
static void rank_counts(const Ctx *c, const Exchange *x, i64 cls, i64 s, i64 j_lt, i64 j_le, i64 *lt, i64 *le) {
    i64 a = 0, b = 0;
    for (i64 e = x->sig_start[cls]; e < x->sig_stop[cls]; e++) {
        i64 row = x->sig_row[e], coef = x->sig_coef[e];
        if (row >= 0) {
            const uint16_t *ix = c->index + row * c->width;
            double zero = c->cum[ix[0]];
            a += coef * (i64)(c->cum[ix[j_lt]] - zero);
            b += coef * (i64)(c->cum[ix[j_le]] - zero);
        } else {
            a += coef * (x->sig_single[e] < s);
            b += coef * (x->sig_single[e] <= s);
        }
    }
    *lt = a;
    *le = b;
}

/* One term of the dealer-flush corrections: the hidden hands holding the up-suit cards of the ranks
   `bits` (at most four), below the count-table position j (four cards: a single hand of flush
   strength f, rank strength r, compared with s). */
static i64 tau_term(const Ctx *c, int bits, i64 j, i64 s, int inclusive) {
    int size = popcount((unsigned)bits);
    if (size <= 3) return table(c, c->tau_row[bits], j);
    i64 f = c->sq_flush[bits], r = c->sq_rank[bits];
    return inclusive ? (f <= s) - (r <= s) : (f < s) - (r < s);
}

/* Per-strength state of the buy margins, kept while consecutive units share it: `v` and `base`
   depend on the hand's band among the dealer's non-flush strengths after a bought game, the deltas
   also on its band among his flushes. `gmax[i]` is the most the suited groups of rank set i can add
   to its margin. */
typedef struct {
    i64 key[9];
    i64 p;                 /* the hand strength it was made for */
    i64 v[13][MAX_SETS];   /* by next card's rank, then rank set: a draw's margins are whole rows */
    i64 base[MAX_SETS];
    i64 delta[MAX_GROUPS][13];
    i64 full[MAX_GROUPS];
    i64 pos[MAX_GROUPS];   /* the sum of a group's positive deltas */
    i64 gmax[MAX_SETS];
} Band;

#define BANDS 8
#define MAX_PAIRS (MAX_GROUPS * 13)

/* A suited group's fields side by side (read together for every group of a draw); `rho` is 13 when
   the group has none (rank 13 is never drawn nor held). */
typedef struct { int32_t held, count, rho, suit; } GroupInfo;

/* One thread's working memory (the bands are large: kept in a pool, not on the stack). */
typedef struct {
    Band bands[BANDS];
    i64 band_used[BANDS]; /* last use (0: empty) */
    i64 band_clock;
    Band *band_cur;
    int set_first[MAX_SETS + 1], set_groups[MAX_GROUPS + 2];
    GroupInfo ginfo[MAX_GROUPS];
    int set_pairs[MAX_SETS][2]; /* a set's four ranks as two pairs (13 a + b) */
    /* the suited groups' completing ranks, by the strength of the dealer's flush they make
       (built when a band is first moved to another flush band) */
    i64 n_pairs;
    i64 pair_af[MAX_PAIRS];
    int pair_g[MAX_PAIRS], pair_r[MAX_PAIRS];
    char dirty[MAX_SETS];
} Work;

static void group_sets(Work *wk, const Ctx *c) {
    int at[MAX_SETS];
    memset(wk->set_first, 0, sizeof wk->set_first);
    for (i64 g = 0; g < c->n_groups; g++) wk->set_first[c->g_set[g] + 1]++;
    for (i64 i = 0; i < c->n_sets; i++) wk->set_first[i + 1] += wk->set_first[i];
    for (i64 i = 0; i < c->n_sets; i++) at[i] = wk->set_first[i];
    for (i64 g = 0; g < c->n_groups; g++) wk->set_groups[at[c->g_set[g]]++] = (int)g;
    for (i64 i = 0; i < c->n_sets; i++) {
        const i64 *rk = c->set_ranks + i * 4;
        wk->set_pairs[i][0] = (int)(rk[0] * 13 + rk[1]);
        wk->set_pairs[i][1] = (int)(rk[2] * 13 + rk[3]);
    }
    for (i64 g = 0; g < c->n_groups; g++)
        wk->ginfo[g] = (GroupInfo){(int32_t)c->g_held[g], (int32_t)c->g_count[g],
                                   (int32_t)(c->g_rho[g] >= 0 ? c->g_rho[g] : 13), (int32_t)c->g_suit[g]};
    wk->n_pairs = -1;
}

static i64 max0(i64 x) { return x > 0 ? x : 0; }

/* The completing (group, rank) pairs in ascending order of their flush's place among the dealer's
   flush strengths (a counting sort: a place holds a few strengths at most). Returns -1 when memory
   runs out. */
static int sort_pairs(Work *wk, const Ctx *c) {
    i64 *start = calloc((size_t)c->n_flush + 2, sizeof *start);
    if (!start) return -1;
    i64 n = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (i64 g = 0; g < c->n_groups; g++) {
            const i64 *af = c->after_flush + c->g_set[g] * 13;
            for (int r = 0; r < 13; r++) {
                if (!((c->g_completers[g] >> r) & 1)) continue;
                i64 place = lower(c->flush_sorted, c->n_flush, af[r]);
                if (pass == 0) {
                    start[place + 1]++;
                    n++;
                } else {
                    i64 e = start[place]++;
                    wk->pair_af[e] = place;
                    wk->pair_g[e] = (int)g;
                    wk->pair_r[e] = r;
                }
            }
        }
        if (pass == 0)
            for (i64 q = 0; q <= c->n_flush; q++) start[q + 1] += start[q];
    }
    free(start);
    wk->n_pairs = n;
    return 0;
}

/* The deltas of band B (made for strength B->p) moved to strength p, its margins unchanged: only the
   pairs whose dealer flush lies between the two strengths can change. */
static int move_band(Work *wk, const Ctx *c, Band *B, i64 p, i64 win, i64 tie, i64 lose, i64 thr) {
    if (wk->n_pairs < 0 && sort_pairs(wk, c)) return -1;
    i64 lo = B->p < p ? B->p : p, hi = B->p < p ? p : B->p;
    i64 a = lower(c->flush_sorted, c->n_flush, lo), b = upper(c->flush_sorted, c->n_flush, hi);
    i64 e = lower(wk->pair_af, wk->n_pairs, a), stop = upper(wk->pair_af, wk->n_pairs, b);
    int any = 0;
    for (; e < stop; e++) {
        int g = wk->pair_g[e], r = wk->pair_r[e];
        i64 i = c->g_set[g];
        i64 d = cmp_result(p, c->after_flush[i * 13 + r], win, tie, lose) - thr - B->v[r][i];
        i64 old = B->delta[g][r];
        if (d == old) continue;
        B->delta[g][r] = d;
        B->full[g] += d - old;
        B->pos[g] += max0(d) - max0(old);
        wk->dirty[i] = 1;
        any = 1;
    }
    if (any)
        for (i64 i = 0; i < c->n_sets; i++) {
            if (!wk->dirty[i]) continue;
            wk->dirty[i] = 0;
            i64 best = INT64_MIN / 4;
            for (int q = wk->set_first[i]; q < wk->set_first[i + 1]; q++)
                if (B->pos[wk->set_groups[q]] > best) best = B->pos[wk->set_groups[q]];
            B->gmax[i] = best;
        }
    return 0;
}

/* Makes `band` the state for a hand of strength p with results o (kept for the last BANDS keys). */
static void band_for(Work *wk, const Ctx *c, i64 p, const i64 *o) {
    i64 win = o[0], tie = o[1], lose = o[2], fail = o[4], thr = o[3] + c->fee;
    i64 key[9] = {lower(c->after_sorted, c->n_after, p), upper(c->after_sorted, c->n_after, p),
                  win, tie, lose, fail, thr,
                  lower(c->flush_sorted, c->n_flush, p), upper(c->flush_sorted, c->n_flush, p)};
    i64 *used = wk->band_used;
    wk->band_clock++;
    int oldest = 0, same_v = -1;
    for (int b = 0; b < BANDS; b++) {
        if (used[b] && memcmp(key, wk->bands[b].key, sizeof key) == 0) {
            used[b] = wk->band_clock;
            wk->band_cur = &wk->bands[b];
            return;
        }
        if (used[b] && same_v < 0 && memcmp(key, wk->bands[b].key, 7 * sizeof(i64)) == 0) same_v = b;
        if (used[b] < used[oldest]) oldest = b;
    }
    /* a band with the same margins but another flush band is overwritten (hands in ascending
       strength rarely come back to it), else the least recently used */
    if (same_v >= 0) oldest = same_v;
    Band *B = &wk->bands[oldest];
    if (same_v >= 0 && move_band(wk, c, B, p, win, tie, lose, thr) == 0) {
        memcpy(B->key, key, sizeof key);
        B->p = p;
        used[oldest] = wk->band_clock;
        wk->band_cur = B;
        return;
    }
    if (same_v < 0) {
        for (i64 i = 0; i < c->n_sets; i++) {
            const i64 *a = c->after + i * 13;
            i64 base = 0;
            for (int r = 0; r < 13; r++) {
                i64 res = a[r] < c->ak_floor ? fail : cmp_result(p, a[r], win, tie, lose);
                B->v[r][i] = res - thr;
                base += (c->avail[r] - ((c->set_mask[i] >> r) & 1)) * B->v[r][i];
            }
            B->base[i] = base;
        }
    }
    memcpy(B->key, key, sizeof key);
    B->p = p;
    used[oldest] = wk->band_clock;
    for (i64 i = 0; i < c->n_sets; i++) B->gmax[i] = INT64_MIN / 4;
    for (i64 g = 0; g < c->n_groups; g++) {
        i64 i = c->g_set[g], full = 0, gain = 0;
        const i64 *af = c->after_flush + i * 13;
        for (int r = 0; r < 13; r++) {
            i64 d = 0;
            if ((c->g_completers[g] >> r) & 1) d = cmp_result(p, af[r], win, tie, lose) - thr - B->v[r][i];
            B->delta[g][r] = d;
            full += d;
            if (d < 0) gain -= d;
        }
        B->full[g] = full;
        B->pos[g] = full + gain;
        if (full + gain > B->gmax[i]) B->gmax[i] = full + gain;
    }
    wk->band_cur = B;
}

static const i64 BINOM[5][5] = {{1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};

static i64 choose(int n, int k) { return (n < 0 || k < 0 || k > n) ? 0 : BINOM[n][k]; }

typedef struct {
    const Ctx *c;
    Work *wk;
    int d;               /* distinct ranks drawn */
    int rank[5];         /* those ranks */
    int pos_of[14];      /* position of a rank among them (-1: not drawn; [13] for none) */
    int pos_bit[13];     /* 1 << its position (0: not drawn) */
    int zmask;           /* the ranks drawn */
    i64 z[14];           /* cards drawn of each rank ([13]: 0, for none) */
    i64 s;
    const i64 *o;
    int buys;            /* buying the game can pay for this hand */
    i64 margin[MAX_SETS];
    i64 left2[169];      /* per pair of ranks (13 a + b): the pool's cards of a times of b, after the draw */
    int pos2[169];       /* ... and the drawn positions of the two ranks */
    i64 rank_excess;
    /* the positive margins of the dealer flushes, summed by the positions of the drawn ranks they
       hold (a draw taking an up-suit card of one of those ranks blocks the flush) */
    i64 flush_margin[32];
    int n_live;          /* the groups of the rank sets whose suited groups may change the buy, with
                            their sets' margins (one flat list: a set has one or two groups) */
    int live[MAX_GROUPS + 2];
    i64 live_m[MAX_GROUPS + 2];
    /* memo per pattern of up-suit positions taken: stands and the buy's rank part */
    int t_done[32];
    i64 t_base[32], t_ins[32], t_buy[32];
    i64 r_lt, r_le, r_ng, j_lt, j_le, j_ng;
    int tg_done[32];     /* the terms of the dealer-flush corrections, per pattern of up-suit cards */
    i64 tg_lt[32], tg_le[32], tg_ng[32];
    i64 hands, deck, fold;
    /* draws per suit pattern, and their factors: in[s][j] draws taking rank j's card of suit s,
       out[s][j] the others (a product over the ranks; `fsuits` the flush draws left out) */
    i64 N[4][32];
    i64 in[4][5], outw[4][5];
    int fsuits;
    i64 cls;             /* the rank class whose buy state is held (-1: none) */
    i64 bkey[9];         /* ... and the band it was computed for */
    int tb_done[32];     /* the buy's rank part per up-suit pattern */
    int gs_fsuits;       /* group sums held, for these flush draws left out (-1: none) */
    i64 gs_sum, gs_lo, gs_hi;
    i64 stamp;           /* the unit's number: `w` entries of other units are stale */
    i64 w_stamp[4][32][6], w[4][32][6];
} Unit;

#define band (*u->wk->band_cur)
#define set_first (u->wk->set_first)
#define set_groups (u->wk->set_groups)

/* The ranks drawn at the positions `pos` (positions number the drawn ranks in ascending order, so
   this is a bit deposit into the drawn ranks' mask). */
static int rank_bits(const Unit *u, int pos) {
#ifdef __BMI2__
    return (int)_pdep_u32((unsigned)pos, (unsigned)u->zmask);
#else
    int bits = 0;
    for (int j = 0; j < u->d; j++)
        if ((pos >> j) & 1) bits |= 1 << u->rank[j];
    return bits;
#endif
}

/* The positions of the drawn ranks among the ranks `mask` (the inverse: a bit extract). */
static int drawn_positions(const Unit *u, int mask) {
#ifdef __BMI2__
    return (int)_pext_u32((unsigned)mask, (unsigned)u->zmask);
#else
    int pos = 0;
    for (int b = mask & u->zmask; b; b &= b - 1) pos |= u->pos_bit[__builtin_ctz((unsigned)b)];
    return pos;
#endif
}

static void set_ranks(Unit *u, const i64 *z) {
    u->d = 0;
    u->zmask = 0;
    u->z[13] = 0;
    u->pos_of[13] = -1;
    for (int r = 0; r < 13; r++) {
        u->z[r] = z[r];
        u->pos_of[r] = -1;
        u->pos_bit[r] = 0;
        if (z[r]) {
            u->pos_of[r] = u->d;
            u->pos_bit[r] = 1 << u->d;
            u->zmask |= 1 << r;
            u->rank[u->d++] = r;
        }
    }
}

/* The unit's strength, results and buy margins (the ranks are set). */
/* (cls: the rank class of a class unit, -1 for a single draw; a class unit of the class and band
   whose buy state is held keeps it) */
static void prepare(Unit *u, const Ctx *c, i64 s, i64 hands, i64 deck, i64 cls) {
    const i64 *z = u->z;
    u->c = c;
    u->s = s;
    u->o = c->out + s * 8;
    u->hands = hands;
    u->deck = deck;
    u->fold = u->o[5] * hands * deck;
    memset(u->t_done, 0, sizeof u->t_done);
    memset(u->tg_done, 0, sizeof u->tg_done);
    u->j_lt = lower(c->axis, c->n_axis, s);
    u->j_le = upper(c->axis, c->n_axis, s);
    u->j_ng = lower(c->axis, c->n_axis, c->ak_floor);
    const i64 *o = u->o;
    i64 thr = o[3] + c->fee;
    i64 top = o[0];
    if (o[1] > top) top = o[1];
    if (o[2] > top) top = o[2];
    if (o[4] > top) top = o[4];
    u->buys = c->n_sets > 0 && top > thr;
    if (!u->buys) {
        u->cls = -1;
        return;
    }
    band_for(u->wk, c, s, o);
    if (cls >= 0 && cls == u->cls && memcmp(u->bkey, band.key, sizeof u->bkey) == 0) return; /* held */
    u->cls = cls;
    memcpy(u->bkey, band.key, sizeof u->bkey);
    memset(u->tb_done, 0, sizeof u->tb_done);
    u->gs_fsuits = -1;
    u->rank_excess = 0;
    memset(u->flush_margin, 0, sizeof u->flush_margin);
    u->n_live = 0;
    i64 left[13];
    for (int r = 0; r < 13; r++) left[r] = c->avail[r] - z[r];
    for (int a = 0; a < 13; a++)
        for (int b = 0; b < 13; b++) {
            u->left2[a * 13 + b] = left[a] * left[b];
            u->pos2[a * 13 + b] = u->pos_bit[a] | u->pos_bit[b];
        }
    const int (*pairs)[2] = u->wk->set_pairs;
    i64 n_sets = c->n_sets, *margin = u->margin;
    /* each drawn card's row once (a rank drawn twice, twice): one vectorised pass, no products */
    const i64 *rw[5], *base = band.base;
    int n_rows = 0;
    for (int j = 0; j < u->d; j++)
        for (i64 t = 0; t < z[u->rank[j]] && n_rows < 5; t++) rw[n_rows++] = band.v[u->rank[j]];
    switch (n_rows) {
    case 0:
        memcpy(margin, base, (size_t)n_sets * sizeof *margin);
        break;
    case 1:
        for (i64 i = 0; i < n_sets; i++) margin[i] = base[i] - rw[0][i];
        break;
    case 2:
        for (i64 i = 0; i < n_sets; i++) margin[i] = base[i] - rw[0][i] - rw[1][i];
        break;
    case 3:
        for (i64 i = 0; i < n_sets; i++) margin[i] = base[i] - rw[0][i] - rw[1][i] - rw[2][i];
        break;
    case 4:
        for (i64 i = 0; i < n_sets; i++) margin[i] = base[i] - rw[0][i] - rw[1][i] - rw[2][i] - rw[3][i];
        break;
    default:
        for (i64 i = 0; i < n_sets; i++)
            margin[i] = base[i] - rw[0][i] - rw[1][i] - rw[2][i] - rw[3][i] - rw[4][i];
    }
    for (i64 i = 0; i < n_sets; i++) {
        i64 m = margin[i];
        if (m > 0) {
            int p0 = pairs[i][0], p1 = pairs[i][1];
            u->rank_excess += m * u->left2[p0] * u->left2[p1];
            if (c->flush_hand[i]) u->flush_margin[u->pos2[p0] | u->pos2[p1]] += m;
        } else {
            if (m + band.gmax[i] <= 0) continue; /* no suited group of this rank set can make buying pay */
            /* only the groups that can */
            for (int e = set_first[i]; e < set_first[i + 1]; e++) {
                int g = set_groups[e];
                if (m + band.pos[g] <= 0) continue;
                u->live[u->n_live] = g;
                u->live_m[u->n_live] = m;
                u->n_live++;
            }
            continue;
        }
        /* most sets have one or two groups: two written, as many kept */
        int e0 = set_first[i], n = set_first[i + 1] - e0, at = u->n_live;
        u->live[at] = set_groups[e0];
        u->live[at + 1] = set_groups[e0 + 1];
        u->live_m[at] = m;
        u->live_m[at + 1] = m;
        for (int e = 2; e < n; e++) {
            u->live[at + e] = set_groups[e0 + e];
            u->live_m[at + e] = m;
        }
        u->n_live = at + n;
    }
}

/* One suited group's buy change for a draw taking the cards of suit g_suit[g] of the ranks `bits`. */
static i64 group_value(const Unit *u, int g, i64 m, int bits) {
    const GroupInfo *gi = &u->wk->ginfo[g];
    if (bits & gi->held) return 0;
    i64 count = gi->count + ((bits >> gi->rho) & 1) - u->z[gi->rho];
    if (!count) return 0;
    i64 shift = band.full[g];
    const i64 *dl = band.delta[g];
    for (int b = bits; b; b &= b - 1) shift -= dl[__builtin_ctz((unsigned)b)];
    return count * (max0(m + shift) - max0(m));
}

/* The stands of the draws whose up-suit cards are the positions `t`: the bet before the buy, bet
   and insure (when offered for this hand), the buy's rank part (less the dealer flushes). */
static void memo_t(Unit *u, int t) {
    if (u->t_done[t]) return;
    const Ctx *c = u->c;
    i64 lt = u->r_lt, le = u->r_le, ng = u->r_ng;
    for (int sub = t;; sub = (sub - 1) & t) {
        if (!u->tg_done[sub]) {
            int bits = rank_bits(u, sub), sign = (popcount((unsigned)sub) & 1) ? -1 : 1;
            int four = popcount((unsigned)sub) <= 4;
            i64 lt_ = 0, le_ = 0, ng_ = 0;
            if (four && popcount((unsigned)sub) <= 3) {
                const uint16_t *ix = c->index + c->tau_row[bits] * c->width;
                double zero = c->cum[ix[0]];
                lt_ = (i64)(c->cum[ix[u->j_lt]] - zero);
                le_ = (i64)(c->cum[ix[u->j_le]] - zero);
                ng_ = (i64)(c->cum[ix[u->j_ng]] - zero);
            } else if (four) {
                lt_ = tau_term(c, bits, u->j_lt, u->s, 0);
                le_ = tau_term(c, bits, u->j_le, u->s, 1);
                ng_ = tau_term(c, bits, u->j_ng, c->ak_floor, 0);
            }
            u->tg_lt[sub] = sign * lt_;
            u->tg_le[sub] = sign * le_;
            u->tg_ng[sub] = sign * ng_;
            u->tg_done[sub] = 1;
        }
        lt += u->tg_lt[sub];
        le += u->tg_le[sub];
        ng += u->tg_ng[sub];
        if (sub == 0) break;
    }
    const i64 *o = u->o;
    int q = u->s >= c->ak_floor;
    i64 below = q ? lt - ng : 0;
    i64 equal = q ? le - lt : 0;
    i64 above = u->hands - ng - below - equal;
    i64 base = u->deck * (o[0] * below + o[1] * equal + o[2] * above + o[3] * ng);
    u->t_base[t] = base;
    u->t_ins[t] = o[7] > 0 ? base + u->deck * o[7] * (c->odds * ng - (u->hands - ng)) : INT64_MIN;
    u->t_done[t] = 1;
    if (!u->buys) {
        u->t_buy[t] = 0;
    } else if (!u->tb_done[t]) {
        i64 buy = u->rank_excess;
        int open = ((1 << u->d) - 1) & ~t; /* the flushes holding none of t's ranks stay */
        for (int pos = open;; pos = (pos - 1) & open) {
            buy -= u->flush_margin[pos];
            if (pos == 0) break;
        }
        u->t_buy[t] = buy;
        u->tb_done[t] = 1;
    }
}

static i64 best_of(const Unit *u, int t, i64 excess) {
    i64 best = u->fold;
    i64 bet = u->t_base[t] + u->t_buy[t] + excess;
    if (bet > best) best = bet;
    if (u->t_ins[t] > best) best = u->t_ins[t];
    return best;
}

/* The best stand of one card-level draw, given the positions it takes in each suit (the suited
   groups of every suit in one pass). */
static i64 best_stand(Unit *u, const int taken[4]) {
    const Ctx *c = u->c;
    int t = taken[c->up_suit];
    memo_t(u, t);
    i64 excess = 0;
    if (u->buys) {
        int bits[4];
        for (int s = 0; s < 4; s++) bits[s] = rank_bits(u, taken[s]);
        for (int i = 0; i < u->n_live; i++) {
            int g = u->live[i];
            excess += group_value(u, g, u->live_m[i], bits[u->wk->ginfo[g].suit]);
        }
    }
    return best_of(u, t, excess);
}

enum { FOLD, BET, INSURE, OPEN };

/* Draws of the class per suit pattern (see Unit). */
static i64 count_patterns(Unit *u, const Exchange *x, i64 opt, int suits[5]) {
    const Ctx *c = u->c;
    int d = u->d, full = (1 << d) - 1, single = 1, nsuit[5];
    for (int j = 0; j < d; j++) {
        int r = u->rank[j];
        suits[j] = 0;
        for (int s = 0; s < 4; s++)
            if ((c->pool_suit[s] >> r) & 1) suits[j] |= 1 << s;
        nsuit[j] = popcount((unsigned)suits[j]);
        if (u->z[r] != 1) single = 0;
    }
    i64 fs = x->flush_suit[opt];
    u->fsuits = 0;
    if (single && fs >= 0 && (fs < 4 || d == 5)) {
        for (int s = 0; s < 4; s++) {
            if (fs < 4 && s != fs) continue;
            int all = 1;
            for (int j = 0; j < d; j++)
                if (!((suits[j] >> s) & 1)) all = 0;
            if (all) u->fsuits |= 1 << s;
        }
    }
    i64 total = 1;
    for (int j = 0; j < d; j++) total *= choose(nsuit[j], (int)u->z[u->rank[j]]);
    for (int s = 0; s < 4; s++) {
        if (!u->buys && s != c->up_suit) continue;
        for (int j = 0; j < d; j++) {
            int z = (int)u->z[u->rank[j]], has = (suits[j] >> s) & 1;
            u->in[s][j] = has ? choose(nsuit[j] - 1, z - 1) : 0;
            u->outw[s][j] = choose(nsuit[j] - has, z);
        }
        for (int p = 0; p <= full; p++) {
            i64 ways = 1;
            for (int j = 0; j < d && ways; j++) ways *= ((p >> j) & 1) ? u->in[s][j] : u->outw[s][j];
            u->N[s][p] = ways;
        }
    }
    for (int f = 0; f < 4; f++) {
        if (!((u->fsuits >> f) & 1)) continue;
        total--;
        for (int s = 0; s < 4; s++) u->N[s][s == f ? full : 0]--;
    }
    return total;
}

/* Draws of the class avoiding the positions `held` and taking those of `force`, in suit s (before
   the flush draws are left out): a product over the ranks. */
static i64 ways_product(const Unit *u, int s, int held, int force) {
    if (held & force) return 0;
    i64 w = 1;
    for (int j = 0; j < u->d; j++)
        w *= ((force >> j) & 1) ? u->in[s][j] : ((held >> j) & 1) ? u->outw[s][j] : u->in[s][j] + u->outw[s][j];
    return w;
}

/* `ways_product`, kept per suit and held positions for no forced position or one (`force` = 1 << j). */
static i64 ways(Unit *u, int s, int held, int force) {
    int slot = force ? __builtin_ctz((unsigned)force) + 1 : 0;
    if (force & (force - 1)) return ways_product(u, s, held, force);
    if (u->w_stamp[s][held][slot] != u->stamp) {
        u->w_stamp[s][held][slot] = u->stamp;
        u->w[s][held][slot] = ways_product(u, s, held, force);
    }
    return u->w[s][held][slot];
}

/* Sum over the class's draws of a suited group's buy change, and its range over the patterns. A
   group whose buy pays whatever the pattern (or never does) changes the sum linearly in the
   positions taken: summed in closed form; the others pattern by pattern. */
static void group_sum(Unit *u, int g, i64 m, i64 *sum, i64 *lo, i64 *hi) {
    const GroupInfo *gi = &u->wk->ginfo[g];
    int s = gi->suit, d = u->d, full = (1 << d) - 1;
    i64 dl[5];
    int rho = u->pos_of[gi->rho];
    i64 f = band.full[g], shift_lo = f, shift_hi = f;
    const i64 *delta = band.delta[g];
    for (int j = 0; j < d; j++) {
        dl[j] = delta[u->rank[j]];
        if (dl[j] > 0) shift_lo -= dl[j]; else shift_hi -= dl[j];
    }
    if (m <= 0 && m + shift_hi <= 0) return; /* never pays */
    int held = drawn_positions(u, gi->held);
    i64 cb = gi->count - u->z[gi->rho];
    i64 cmax = cb + (rho >= 0);
    int over = m > 0 && m + shift_lo > 0, under = m > 0 && m + shift_hi <= 0;
    if (over || under) {
        /* over: count x (full - the deltas of the positions taken); under: count x (-m) */
        i64 total;
        if (over) {
            total = cb * f * ways(u, s, held, 0);
            for (int j = 0; j < d; j++)
                if (dl[j]) total -= cb * dl[j] * ways(u, s, held, 1 << j);
            if (rho >= 0) {
                total += f * ways(u, s, held, 1 << rho);
                for (int j = 0; j < d; j++)
                    if (dl[j]) total -= dl[j] * ways(u, s, held, 1 << rho | 1 << j);
            }
            i64 a = (shift_lo < 0 ? cmax : cb) * shift_lo, b = (shift_hi > 0 ? cmax : cb) * shift_hi;
            *lo += a < 0 ? a : 0;
            *hi += b > 0 ? b : 0;
        } else {
            total = -m * (cb * ways(u, s, held, 0) + (rho >= 0 ? ways(u, s, held, 1 << rho) : 0));
            *lo -= cmax * m;
        }
        for (int fs = u->fsuits; fs; fs &= fs - 1) { /* the flush draws left out */
            int q = __builtin_ctz((unsigned)fs);
            total -= group_value(u, g, m, q == s ? rank_bits(u, full) : 0);
        }
        *sum += total;
        return;
    }
    i64 total = 0, mn = 0, mx = 0;
    for (int p = 0; p <= full; p++) {
        if (!u->N[s][p]) continue;
        i64 v = group_value(u, g, m, rank_bits(u, p));
        total += u->N[s][p] * v;
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    *sum += total;
    *lo += mn;
    *hi += mx;
}

/* The sum of the best stand over a rank class's draws (flush draws left out). */
static i64 class_total(Unit *u, const Exchange *x, i64 opt) {
    const Ctx *c = u->c;
    int suits[5];
    int d = u->d, full = (1 << d) - 1, upsuit = (int)c->up_suit;
    if (count_patterns(u, x, opt, suits) <= 0) return 0;
    u->stamp++;
    i64 total = 0;
    if (!u->buys) {
        for (int t = 0; t <= full; t++) {
            if (!u->N[upsuit][t]) continue;
            memo_t(u, t);
            total += u->N[upsuit][t] * best_of(u, t, 0);
        }
        return total;
    }
    /* the suited groups: their sum over the draws, and the range of their sum over the patterns */
    if (u->gs_fsuits != u->fsuits) {
        i64 sum = 0, lo = 0, hi = 0;
        for (int i = 0; i < u->n_live; i++) group_sum(u, u->live[i], u->live_m[i], &sum, &lo, &hi);
        u->gs_sum = sum;
        u->gs_lo = lo;
        u->gs_hi = hi;
        u->gs_fsuits = u->fsuits;
    }
    i64 sum = u->gs_sum, lo = u->gs_lo, hi = u->gs_hi;
    int action = OPEN, decided = 1;
    for (int t = 0; t <= full && decided; t++) {
        if (!u->N[upsuit][t]) continue;
        memo_t(u, t);
        i64 bet = u->t_base[t] + u->t_buy[t], ins = u->t_ins[t];
        int a;
        if (bet + lo >= u->fold && bet + lo >= ins) a = BET;
        else if (u->fold >= bet + hi && u->fold >= ins) a = FOLD;
        else if (ins >= bet + hi && ins >= u->fold) a = INSURE;
        else a = OPEN;
        /* every pattern decided, and the bet either everywhere or nowhere */
        if (a == OPEN || (action != OPEN && (a == BET) != (action == BET))) decided = 0;
        action = a;
    }
    if (decided) {
        if (action == BET) {
            total = sum;
            for (int t = 0; t <= full; t++)
                if (u->N[upsuit][t]) total += u->N[upsuit][t] * (u->t_base[t] + u->t_buy[t]);
        } else {
            for (int t = 0; t <= full; t++)
                if (u->N[upsuit][t]) total += u->N[upsuit][t] * (u->fold > u->t_ins[t] ? u->fold : u->t_ins[t]);
        }
        return total;
    }
    /* walk the draws: every choice of suits for each drawn rank */
    int opts[5][6], nopt[5], at[5];
    for (int j = 0; j < d; j++) {
        nopt[j] = 0;
        for (int m = 0; m < 16; m++)
            if ((m & ~suits[j]) == 0 && popcount((unsigned)m) == u->z[u->rank[j]]) opts[j][nopt[j]++] = m;
        at[j] = 0;
    }
    for (;;) {
        int taken[4] = {0, 0, 0, 0};
        for (int j = 0; j < d; j++) {
            int m = opts[j][at[j]];
            for (int s = 0; s < 4; s++)
                if ((m >> s) & 1) taken[s] |= 1 << j;
        }
        int skip = 0;
        for (int f = 0; f < 4; f++)
            if (((u->fsuits >> f) & 1) && taken[f] == full) skip = 1;
        if (!skip) total += best_stand(u, taken);
        int j = 0;
        while (j < d && ++at[j] == nopt[j]) at[j++] = 0;
        if (j == d) break;
    }
    return total;
}

typedef struct { i64 strength, opt, cls; int cards[5]; } FlushDraw;

static int by_strength(const void *a, const void *b) {
    const FlushDraw *x = a, *y = b;
    if (x->strength != y->strength) return (x->strength > y->strength) - (x->strength < y->strength);
    if (x->opt != y->opt) return (x->opt > y->opt) - (x->opt < y->opt);
    return (x->cls > y->cls) - (x->cls < y->cls);
}

/* The draws that make the player a flush, each a unit of its own. */
static int flush_draws(const Ctx *c, const Exchange *x, FlushDraw **found, i64 *n_found) {
    int k = (int)x->k;
    i64 cap = 0, n = 0;
    FlushDraw *list = NULL;
    for (i64 o = 0; o < x->n_opt; o++) {
        i64 fs = x->flush_suit[o];
        if (fs < 0) continue;
        int kept_mask = 0;
        for (int i = 0; i < 5; i++)
            if (x->kept[o * 5 + i] >= 0) kept_mask |= 1 << (x->kept[o * 5 + i] / 4);
        for (int s = 0; s < 4; s++) {
            if (fs < 4 && s != fs) continue;
            int ranks[13], nr = 0;
            for (int r = 0; r < 13; r++)
                if ((c->pool_suit[s] >> r) & 1) ranks[nr++] = r;
            if (nr < k) continue;
            int idx[5];
            for (int i = 0; i < k; i++) idx[i] = i;
            for (;;) {
                if (n == cap) {
                    cap = cap ? 2 * cap : 1024;
                    FlushDraw *grown = realloc(list, (size_t)cap * sizeof *list);
                    if (!grown) { free(list); return -1; }
                    list = grown;
                }
                FlushDraw *f = &list[n++];
                int mask = 0;
                for (int i = 0; i < 5; i++) f->cards[i] = -1;
                for (int i = 0; i < k; i++) {
                    mask |= 1 << ranks[idx[i]];
                    f->cards[i] = ranks[idx[i]] * 4 + s;
                }
                f->strength = c->flush5[mask | kept_mask];
                f->opt = o;
                f->cls = x->class_of[mask];
                int i = k - 1;
                while (i >= 0 && idx[i] == nr - k + i) i--;
                if (i < 0) break;
                idx[i]++;
                for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
            }
        }
    }
    if (n) qsort(list, (size_t)n, sizeof *list, by_strength);
    *found = list;
    *n_found = n;
    return 0;
}

/* An exchange's work cut into pieces (class units [u0, u1), flush draws [f0, f1)), which the
   threads take in turn: a thread that is done early takes the next piece. */
typedef struct { i64 u0, u1, f0, f1; } Piece;

typedef struct {
    const Ctx *c;
    const Exchange *x;
    const FlushDraw *list;
    const Piece *pieces;
    int n_pieces;
    int *next;             /* the next piece to take (shared, atomic) */
    i64 n_cls;
    i64 *total;            /* [n_opt], this thread's */
    int status;
} Share;

typedef struct { Work wk; Unit unit; } Worker;

#define POOL 16
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static Worker *pool[POOL];
static int n_pool;

static Worker *take_worker(void) {
    Worker *w = NULL;
    pthread_mutex_lock(&pool_lock);
    if (n_pool) w = pool[--n_pool];
    pthread_mutex_unlock(&pool_lock);
    if (!w) w = calloc(1, sizeof *w); /* zeroed once: a unit's stamps only grow */
    return w;
}

static void give_worker(Worker *w) {
    pthread_mutex_lock(&pool_lock);
    if (n_pool < POOL) {
        pool[n_pool++] = w;
        w = NULL;
    }
    pthread_mutex_unlock(&pool_lock);
    free(w);
}

static void run_piece(Unit *u, Share *sh, const Piece *pc, i64 *ng) {
    const Ctx *c = sh->c;
    const Exchange *x = sh->x;
    u->cls = -1;
    for (i64 n = pc->u0; n < pc->u1; n++) {
        i64 cls = x->u_class[n], s = x->u_strength[n];
        set_ranks(u, x->counts + cls * 13);
        prepare(u, c, s, x->hands, x->deck, cls);
        rank_counts(c, x, cls, s, u->j_lt, u->j_le, &u->r_lt, &u->r_le);
        if (ng[cls] == INT64_MIN) ng[cls] = rank_count(c, x, cls, c->ak_floor, 0, u->j_ng);
        u->r_ng = ng[cls];
        sh->total[x->u_option[n]] += class_total(u, x, x->u_option[n]);
    }
    const FlushDraw *list = sh->list;
    for (i64 n = pc->f0; n < pc->f1; n++) {
        const FlushDraw *f = &list[n];
        /* flush draws of the same ranks in other suits (nothing kept) share the unit */
        int same = n > pc->f0 && f->strength == list[n - 1].strength && f->opt == list[n - 1].opt &&
                   f->cls == list[n - 1].cls;
        if (!same) {
            i64 z[13] = {0};
            for (int i = 0; i < 5 && f->cards[i] >= 0; i++) z[f->cards[i] / 4]++;
            set_ranks(u, z);
            prepare(u, c, f->strength, x->hands, x->deck, -1);
            rank_counts(c, x, f->cls, f->strength, u->j_lt, u->j_le, &u->r_lt, &u->r_le);
            if (ng[f->cls] == INT64_MIN) ng[f->cls] = rank_count(c, x, f->cls, c->ak_floor, 0, u->j_ng);
            u->r_ng = ng[f->cls];
        }
        int taken[4] = {0, 0, 0, 0};
        for (int i = 0; i < 5 && f->cards[i] >= 0; i++)
            taken[f->cards[i] % 4] |= 1 << u->pos_of[f->cards[i] / 4];
        sh->total[f->opt] += best_stand(u, taken);
    }
}

static void *run_share(void *arg) {
    Share *sh = arg;
    Worker *wr = take_worker();
    i64 *ng = malloc((size_t)(sh->n_cls + 1) * sizeof *ng);
    if (!wr || !ng) {
        free(ng);
        if (wr) give_worker(wr);
        sh->status = -1;
        return NULL;
    }
    Work *wk = &wr->wk;
    Unit *u = &wr->unit;
    memset(wk->band_used, 0, sizeof wk->band_used);
    group_sets(wk, sh->c);
    u->wk = wk;
    for (i64 i = 0; i < sh->n_cls; i++) ng[i] = INT64_MIN;
    for (;;) {
        int q = __atomic_fetch_add(sh->next, 1, __ATOMIC_RELAXED);
        if (q >= sh->n_pieces) break;
        run_piece(u, sh, &sh->pieces[q], ng);
    }
    free(ng);
    give_worker(wr);
    sh->status = 0;
    return NULL;
}

#define MAX_THREADS 8
#define PIECES 6      /* pieces per thread */
#define SHARE_MIN 1500 /* units and flush draws below which one thread does it all */

/* What buying the game can add, at most, against one dealer hand without a game, for a hand of
   strength s with results o, whatever k cards the player's draw took (solver.Context.buy_bound, the
   same bound): each next card is worth at most the better of its rank's result and its suited
   (dealer flush) result, and the draw can take at most k of the cards worth least. It depends on s
   only through its bands among the dealer's strengths after a bought game and among his flushes,
   and on the results: kept per such key. */
#define BB_SLOTS 4096
typedef struct { i64 key[9]; i64 value; int used; } BuyBound;
typedef struct { BuyBound slot[BB_SLOTS]; int used; } BuyMemo;

static i64 buy_bound(const Ctx *c, BuyMemo *memo, i64 k, i64 s, const i64 *o) {
    i64 thr = o[3] + c->fee;
    i64 top = o[0] > o[1] ? o[0] : o[1];
    if (o[4] > top) top = o[4];
    if (c->n_sets == 0 || top <= thr) return 0;
    i64 key[9] = {lower(c->after_sorted, c->n_after, s), upper(c->after_sorted, c->n_after, s),
                  lower(c->flush_sorted, c->n_flush, s), upper(c->flush_sorted, c->n_flush, s),
                  o[0], o[1], o[2], o[3], o[4]};
    if (2 * memo->used >= BB_SLOTS) memset(memo, 0, sizeof *memo); /* more keys than it holds well */
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 9; i++) h = (h ^ (uint64_t)key[i]) * 1099511628211ull;
    for (uint64_t at = h % BB_SLOTS;; at = (at + 1) % BB_SLOTS) {
        BuyBound *b = &memo->slot[at];
        if (b->used && memcmp(b->key, key, sizeof key) == 0) return b->value;
        if (b->used) continue;
        i64 win = o[0], tie = o[1], lose = o[2], fail = o[4], found = 0;
        for (i64 i = 0; i < c->n_sets; i++) {
            const i64 *after = c->after + i * 13, *flush = c->after_flush + i * 13;
            i64 sum = 0, least = INT64_MAX, mask = c->set_mask[i];
            int present = 1;
            for (int r = 0; r < 13; r++) {
                i64 left = c->avail[r] - ((mask >> r) & 1);
                if (left < 0) present = 0;
                i64 v = after[r] < c->ak_floor ? fail : cmp_result(s, after[r], win, tie, lose);
                v -= thr;
                if (flush[r] > 0) {
                    i64 suited = cmp_result(s, flush[r], win, tie, lose) - thr;
                    if (suited > v) v = suited;
                }
                if (left > 0) sum += left * v;
                if (v < least) least = v;
            }
            if (!present) continue;
            i64 margin = sum + k * (least < 0 ? -least : 0);
            if (margin > found) found = margin;
        }
        memcpy(b->key, key, sizeof key);
        b->value = found;
        b->used = 1;
        memo->used++;
        return found;
    }
}

/* An upper bound of each kept set's sum, much quicker than the sum (solver.Valuation._bounds, the
   same bound, which the tests compare it with): for each class unit, each stand at its best over
   the range its counts can take inside the class (a count lies between its rank part and its rank
   part plus the whole dealer-flush correction; a stand is linear in the counts, so its best is at a
   corner), buying the game at its most (`buy_bound`), times the class's draws (the flush draws
   among them: one more upper bound is harmless); and each flush draw at its best result against
   any dealer hand. */
static int rp_bound(const Ctx *c, const Exchange *x, i64 n_cls, const FlushDraw *list, i64 n_flush) {
    i64 *ng = malloc((size_t)(n_cls + 1) * sizeof *ng);
    BuyMemo *memo = calloc(1, sizeof *memo);
    if (!ng || !memo) {
        free(ng);
        free(memo);
        return -1;
    }
    for (i64 i = 0; i < n_cls; i++) ng[i] = INT64_MIN;
    i64 hands = x->hands, deck = x->deck;
    i64 j_ng = lower(c->axis, c->n_axis, c->ak_floor);
    i64 flush_row = c->tau_row[0];
    i64 c_ng = table(c, flush_row, j_ng);
    for (i64 n = 0; n < x->n_units; n++) {
        i64 cls = x->u_class[n], s = x->u_strength[n];
        const i64 *z = x->counts + cls * 13, *o = c->out + s * 8;
        i64 j_lt = lower(c->axis, c->n_axis, s), j_le = upper(c->axis, c->n_axis, s);
        i64 r_lt, r_le;
        rank_counts(c, x, cls, s, j_lt, j_le, &r_lt, &r_le);
        if (ng[cls] == INT64_MIN) ng[cls] = rank_count(c, x, cls, c->ak_floor, 0, j_ng);
        i64 r_ng = ng[cls];
        i64 c_lt = table(c, flush_row, j_lt), c_le = table(c, flush_row, j_le);
        i64 lts[2] = {r_lt + c_lt, r_lt}, les[2] = {r_le + c_le, r_le}, ngs[2] = {r_ng + c_ng, r_ng};
        int q = s >= c->ak_floor, first = 1;
        i64 base_hi = 0, ins_hi = 0;
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++)
                for (int e = 0; e < 2; e++) {
                    i64 lt = lts[a], le = les[b], g = ngs[e];
                    i64 below = q ? lt - g : 0, equal = q ? le - lt : 0;
                    i64 above = hands - g - below - equal;
                    i64 base = deck * (o[0] * below + o[1] * equal + o[2] * above + o[3] * g);
                    i64 ins = base + deck * o[7] * (c->odds * g - (hands - g));
                    if (first || base > base_hi) base_hi = base;
                    if (first || ins > ins_hi) ins_hi = ins;
                    first = 0;
                }
        i64 best = o[5] * hands * deck; /* fold */
        i64 bet = base_hi + r_ng * buy_bound(c, memo, x->k, s, o);
        if (bet > best) best = bet;
        if (o[7] > 0 && ins_hi > best) best = ins_hi;
        i64 size = 1;
        for (int r = 0; r < 13; r++)
            if (z[r]) size *= choose((int)c->avail[r], (int)z[r]);
        x->total[x->u_option[n]] += best * size;
    }
    for (i64 n = 0; n < n_flush; n++) {
        const i64 *o = c->out + list[n].strength * 8;
        i64 win = o[0], buy = (o[0] > o[4] ? o[0] : o[4]) - c->fee - o[3];
        i64 top = o[3] + (buy > 0 ? buy : 0);
        if (win > top) top = win;
        if (o[5] > top) top = o[5];
        x->total[list[n].opt] += top * hands * deck;
    }
    free(ng);
    free(memo);
    return 0;
}

/* Sum of the best stand over every draw of the exchange, for each kept set. Returns 0, or -1 when
   a table is too large or memory runs out. The units are split between up to x->threads threads
   (a class's units, and a flush draw's suits, kept in one share: they share state). */
int rp_exchange(const Ctx *c, const Exchange *x) {
    if (c->n_sets > MAX_SETS || c->n_groups > MAX_GROUPS) return -1;
    for (i64 o = 0; o < x->n_opt; o++) x->total[o] = 0;
    i64 n_cls = 0;
    for (i64 n = 0; n < x->n_units; n++)
        if (x->u_class[n] + 1 > n_cls) n_cls = x->u_class[n] + 1;
    for (int m = 0; m < 8192; m++)
        if (x->class_of[m] + 1 > n_cls) n_cls = x->class_of[m] + 1;
    FlushDraw *list;
    i64 n_flush;
    if (flush_draws(c, x, &list, &n_flush)) return -1;
    if (x->bound) {
        int status = rp_bound(c, x, n_cls, list, n_flush);
        free(list);
        return status;
    }
    int parts = (int)x->threads;
    if (parts > MAX_THREADS) parts = MAX_THREADS;
    if (parts < 1 || x->n_units + n_flush < SHARE_MIN) parts = 1;
    /* pieces: a class's units, and a flush draw's other suits, never cut apart (they share state) */
    int n_pieces = parts == 1 ? 1 : parts * PIECES;
    Piece pieces[MAX_THREADS * PIECES];
    i64 u_at = 0, f_at = 0;
    for (int q = 0; q < n_pieces; q++) {
        i64 u_end = q + 1 == n_pieces ? x->n_units : x->n_units * (q + 1) / n_pieces;
        if (u_end < u_at) u_end = u_at;
        while (u_end > u_at && u_end < x->n_units && x->u_class[u_end] == x->u_class[u_end - 1]) u_end++;
        i64 f_end = q + 1 == n_pieces ? n_flush : n_flush * (q + 1) / n_pieces;
        if (f_end < f_at) f_end = f_at;
        while (f_end > f_at && f_end < n_flush && list[f_end].strength == list[f_end - 1].strength &&
               list[f_end].opt == list[f_end - 1].opt && list[f_end].cls == list[f_end - 1].cls)
            f_end++;
        pieces[q] = (Piece){u_at, u_end, f_at, f_end};
        u_at = u_end;
        f_at = f_end;
    }
    i64 stride = x->n_opt + 16; /* threads' sums a cache line apart or more: no false sharing */
    i64 *totals = calloc((size_t)(parts * stride + 1), sizeof *totals);
    if (!totals) {
        free(list);
        return -1;
    }
    int next = 0;
    Share sh[MAX_THREADS];
    for (int t = 0; t < parts; t++)
        sh[t] = (Share){c, x, list, pieces, n_pieces, &next, n_cls, totals + t * stride, -1};
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (int t = 1; t < parts; t++) started[t] = pthread_create(&tid[t], NULL, run_share, &sh[t]) == 0;
    run_share(&sh[0]);
    int status = sh[0].status;
    for (int t = 1; t < parts; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else run_share(&sh[t]); /* no thread to be had: takes no piece, all were taken */
        if (sh[t].status) status = -1;
    }
    for (int t = 0; t < parts; t++)
        for (i64 o = 0; o < x->n_opt; o++) x->total[o] += sh[t].total[o];
    free(totals);
    free(list);
    return status;
}

/* The layout of Ctx and Exchange as this compiler lays them out, for kernel.py's ctypes mirror to be
   checked against, at load and by the tests: a mirror that disagrees is never called. Every field
   is listed; a field added to a struct and not here changes its size, which is compared too. */
#define RP_KIND(e) _Generic((e), i64: 'i', const i64 *: 'p', i64 *: 'p', const double *: 'p', \
                            const uint16_t *: 'p', default: '?')
#define RP_FIELD(T, f) {#f, (i64)offsetof(T, f), (i64)sizeof(((T *)0)->f), RP_KIND(((T *)0)->f)}

typedef struct { const char *name; i64 offset, size; int kind; } FieldInfo;

static const FieldInfo ctx_fields[] = {
    RP_FIELD(Ctx, avail), RP_FIELD(Ctx, pool_suit), RP_FIELD(Ctx, up_suit), RP_FIELD(Ctx, ak_floor),
    RP_FIELD(Ctx, cum), RP_FIELD(Ctx, index), RP_FIELD(Ctx, width), RP_FIELD(Ctx, axis),
    RP_FIELD(Ctx, n_axis), RP_FIELD(Ctx, tau_row), RP_FIELD(Ctx, sq_flush), RP_FIELD(Ctx, sq_rank),
    RP_FIELD(Ctx, flush5), RP_FIELD(Ctx, n_sets), RP_FIELD(Ctx, set_mask), RP_FIELD(Ctx, set_ranks),
    RP_FIELD(Ctx, after), RP_FIELD(Ctx, after_flush), RP_FIELD(Ctx, flush_hand),
    RP_FIELD(Ctx, after_sorted), RP_FIELD(Ctx, n_after), RP_FIELD(Ctx, flush_sorted),
    RP_FIELD(Ctx, n_flush), RP_FIELD(Ctx, n_groups), RP_FIELD(Ctx, g_set), RP_FIELD(Ctx, g_suit),
    RP_FIELD(Ctx, g_count), RP_FIELD(Ctx, g_completers), RP_FIELD(Ctx, g_rho), RP_FIELD(Ctx, g_held),
    RP_FIELD(Ctx, out), RP_FIELD(Ctx, fee), RP_FIELD(Ctx, odds),
};

static const FieldInfo exchange_fields[] = {
    RP_FIELD(Exchange, k), RP_FIELD(Exchange, n_opt), RP_FIELD(Exchange, kept),
    RP_FIELD(Exchange, flush_suit), RP_FIELD(Exchange, counts), RP_FIELD(Exchange, sig_start),
    RP_FIELD(Exchange, sig_stop), RP_FIELD(Exchange, sig_row), RP_FIELD(Exchange, sig_single),
    RP_FIELD(Exchange, sig_coef), RP_FIELD(Exchange, class_of), RP_FIELD(Exchange, n_units),
    RP_FIELD(Exchange, u_class), RP_FIELD(Exchange, u_option), RP_FIELD(Exchange, u_strength),
    RP_FIELD(Exchange, hands), RP_FIELD(Exchange, deck), RP_FIELD(Exchange, total),
    RP_FIELD(Exchange, threads), RP_FIELD(Exchange, bound),
};

/* The size of struct `which` (0: Ctx, 1: Exchange), -1 for another number. */
i64 rp_sizeof(int which) {
    return which == 0 ? (i64)sizeof(Ctx) : which == 1 ? (i64)sizeof(Exchange) : -1;
}

/* Field i of struct `which`: its name, with its offset, size and kind ('i' a whole number, 'p' a
   pointer) written out; NULL past the last field. */
const char *rp_field(int which, int i, i64 *offset, i64 *size, int *kind) {
    const FieldInfo *f = which == 0 ? ctx_fields : which == 1 ? exchange_fields : NULL;
    int n = which == 0 ? (int)(sizeof ctx_fields / sizeof *f) : (int)(sizeof exchange_fields / sizeof *f);
    if (!f || i < 0 || i >= n) return NULL;
    *offset = f[i].offset;
    *size = f[i].size;
    *kind = f[i].kind;
    return f[i].name;
}

/* The SHA-256 of the kernel.c this was built from (setup.py defines it; empty when built otherwise),
   so that a checkout whose kernel.c changed after its build is told to build again. */
#ifndef RP_SOURCE_SHA256
#define RP_SOURCE_SHA256 ""
#endif
const char *rp_source_sha256(void) { return RP_SOURCE_SHA256; }
