/* The exact advisor's draw kernel: the sum over every card-level draw of the best stand after it.

   Compiled on first use by kernel.py (the system's C compiler); without one, or with
   TRAINER_ADVISOR_KERNEL=off, the advisor values draws with NumPy (solver.py), which the tests
   compare this kernel against to the last chip.

   A *unit* is a rank class of draws (every draw with the same ranks, any suits; draws that make the
   player a flush are left out) or one card-level draw (a flush draw). For a unit the player's final
   strength is fixed, and everything about the dealer that depends on the draw's ranks only is
   counted once: the hidden hands below / at most / without a game (rank part, from solver.py), the
   buy margins of every rank set the dealer may hold without a game. What depends on the suits of a
   draw depends on it only through the set of the class's ranks it takes in each suit (at most 32
   patterns a suit): the dealer flushes it blocks (up-card suit), the dealer hands of one suit a
   bought game can complete (any suit). Those are computed once per pattern and looked up per draw.

   Every quantity is a whole number: results in units times hidden hands times deck cards. */

#include <stdint.h>
#include <string.h>

typedef int64_t i64;

typedef struct {
    const i64 *avail;      /* [13] pool cards of each rank */
    const i64 *pool_suit;  /* [4] ranks of the pool's cards of each suit (13-bit masks) */
    i64 up_suit;
    i64 ak_floor;
    const double *cum;     /* dealer count tables (counting.py) */
    const uint16_t *index; /* [rows * width] */
    i64 width;
    const i64 *tau_row;    /* [8192] table row of a set of <= 3 up-suit ranks (-1 otherwise) */
    const i64 *sq_flush;   /* [8192] flush strength of four up-suit ranks and the up-card */
    const i64 *sq_rank;    /* [8192] their strength as ranks */
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
    i64 n;
    const i64 *counts;     /* [n * 13] ranks drawn */
    const i64 *strength;   /* [n] the player's final strength */
    const i64 *r_lt, *r_le, *r_ng; /* rank parts of the dealer counts, for one draw */
    const i64 *j_lt, *j_le;        /* count-table positions of the strength */
    const i64 *cards;      /* [n * 5] a single draw's cards, or -1 first: the whole class */
    const i64 *flush_suit; /* [n] class units: leave out draws all of this suit (-1 none, 4 any) */
    i64 j_ng;
    i64 hands;             /* hidden hands after a draw */
    i64 deck;              /* cards left for a bought game */
    i64 *total;            /* out: [n] sum of the best stand over the unit's draws */
} Units;

#define MAX_SETS 512
#define MAX_GROUPS 4096

typedef struct {
    i64 m, full, cbase, dpos[5];
    int held, rhopos, kind2;
} Live;

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

static i64 table(const Ctx *c, i64 row, i64 j) {
    const uint16_t *ix = c->index + row * c->width;
    return (i64)(c->cum[ix[j]] - c->cum[ix[0]]);
}

/* Dealer-flush corrections of a count for the up-suit ranks `taken` drawn (inclusion-exclusion). */
static i64 tau(const Ctx *c, int taken, i64 j, i64 s, int inclusive) {
    i64 sum = 0;
    int sub = taken;
    for (;;) {
        int size = __builtin_popcount(sub);
        if (size <= 3) {
            i64 v = table(c, c->tau_row[sub], j);
            sum += (size & 1) ? -v : v;
        } else if (size == 4) {
            i64 f = c->sq_flush[sub], r = c->sq_rank[sub];
            sum += inclusive ? (f <= s) - (r <= s) : (f < s) - (r < s);
        }
        if (sub == 0) break;
        sub = (sub - 1) & taken;
    }
    return sum;
}

/* Per-strength state of the buy margins, kept while consecutive units share it: `v` and `base`
   depend on the hand's band among the dealer's non-flush strengths after a bought game, the deltas
   also on its band among his flushes. `gmax[i]` is the most the suited groups of rank set i can add
   to its margin. */
typedef struct {
    i64 key[9];
    int valid_v, valid_d;
    i64 v[MAX_SETS][13];
    i64 base[MAX_SETS];
    i64 delta[MAX_GROUPS][13];
    i64 full[MAX_GROUPS];
    i64 gmax[MAX_SETS];
} Band;

static Band band;
static int set_first[MAX_SETS + 1], set_groups[MAX_GROUPS];

static void group_sets(const Ctx *c) {
    int at[MAX_SETS];
    memset(set_first, 0, sizeof set_first);
    for (i64 g = 0; g < c->n_groups; g++) set_first[c->g_set[g] + 1]++;
    for (i64 i = 0; i < c->n_sets; i++) set_first[i + 1] += set_first[i];
    for (i64 i = 0; i < c->n_sets; i++) at[i] = set_first[i];
    for (i64 g = 0; g < c->n_groups; g++) set_groups[at[c->g_set[g]]++] = (int)g;
}

static void band_for(const Ctx *c, i64 p, const i64 *o) {
    i64 win = o[0], tie = o[1], lose = o[2], fail = o[4], thr = o[3] + c->fee;
    i64 key[9] = {lower(c->after_sorted, c->n_after, p), upper(c->after_sorted, c->n_after, p),
                  win, tie, lose, fail, thr,
                  lower(c->flush_sorted, c->n_flush, p), upper(c->flush_sorted, c->n_flush, p)};
    int same_v = band.valid_v && memcmp(key, band.key, 7 * sizeof(i64)) == 0;
    if (same_v && band.valid_d && key[7] == band.key[7] && key[8] == band.key[8]) return;
    memcpy(band.key, key, sizeof key);
    if (!same_v) {
        for (i64 i = 0; i < c->n_sets; i++) {
            const i64 *a = c->after + i * 13;
            i64 base = 0;
            for (int r = 0; r < 13; r++) {
                i64 res = a[r] < c->ak_floor ? fail : cmp_result(p, a[r], win, tie, lose);
                band.v[i][r] = res - thr;
                base += (c->avail[r] - ((c->set_mask[i] >> r) & 1)) * band.v[i][r];
            }
            band.base[i] = base;
        }
        band.valid_v = 1;
    }
    for (i64 i = 0; i < c->n_sets; i++) band.gmax[i] = INT64_MIN / 4;
    for (i64 g = 0; g < c->n_groups; g++) {
        i64 i = c->g_set[g], full = 0, gain = 0;
        const i64 *af = c->after_flush + i * 13;
        for (int r = 0; r < 13; r++) {
            i64 d = 0;
            if ((c->g_completers[g] >> r) & 1) d = cmp_result(p, af[r], win, tie, lose) - thr - band.v[i][r];
            band.delta[g][r] = d;
            full += d;
            if (d < 0) gain -= d;
        }
        band.full[g] = full;
        if (full + gain > band.gmax[i]) band.gmax[i] = full + gain;
    }
    band.valid_d = 1;
}

static i64 max0(i64 x) { return x > 0 ? x : 0; }

static const i64 BINOM[5][5] = {{1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};

static i64 choose(int n, int k) { return (n < 0 || k < 0 || k > n) ? 0 : BINOM[n][k]; }

typedef struct {
    const Ctx *c;
    int d;              /* distinct ranks drawn */
    int rank[5];        /* those ranks */
    i64 z[13];
    i64 s;
    const i64 *o;
    int buys;           /* buying the game can pay for this hand */
    i64 rank_excess;
    /* dealer flushes with a positive margin: their ranks among the drawn ones (position bits) */
    int n_flush;
    int flush_pos[MAX_SETS];
    i64 flush_margin[MAX_SETS];
    int n_live[4];
    Live live[4][MAX_GROUPS];
    /* memo per pattern of taken positions: up-suit (counts, stands, buys), other suits (buys) */
    int t_done[32];
    i64 t_base[32], t_ins[32], t_buy[32];
    int s_done[4][32];
    i64 s_buy[4][32];
    i64 r_lt, r_le, r_ng, j_lt, j_le, j_ng;
    i64 hands, deck, fold;
} Unit;

static Unit unit;

static int rank_bits(const Unit *u, int pos) {
    int bits = 0;
    for (int j = 0; j < u->d; j++)
        if ((pos >> j) & 1) bits |= 1 << u->rank[j];
    return bits;
}

static i64 suit_buy(Unit *u, int suit, int pos) {
    i64 sum = 0;
    for (int i = 0; i < u->n_live[suit]; i++) {
        const Live *g = &u->live[suit][i];
        if (pos & g->held) continue;
        i64 count = g->kind2 ? g->cbase + (g->rhopos >= 0 ? ((pos >> g->rhopos) & 1) : 0) : g->cbase;
        if (!count) continue;
        i64 shift = g->full;
        for (int j = 0; j < u->d; j++)
            if ((pos >> j) & 1) shift -= g->dpos[j];
        sum += count * (max0(g->m + shift) - max0(g->m));
    }
    return sum;
}

static i64 other_buy(Unit *u, int s, int p) {
    if (!u->s_done[s][p]) {
        u->s_buy[s][p] = suit_buy(u, s, p);
        u->s_done[s][p] = 1;
    }
    return u->s_buy[s][p];
}

static void prepare(Unit *u, const Ctx *c, const Units *us, i64 n) {
    const i64 *z = us->counts + n * 13;
    i64 s = us->strength[n];
    u->c = c;
    u->s = s;
    u->o = c->out + s * 8;
    u->d = 0;
    for (int r = 0; r < 13; r++) {
        u->z[r] = z[r];
        if (z[r]) u->rank[u->d++] = r;
    }
    u->r_lt = us->r_lt[n];
    u->r_le = us->r_le[n];
    u->r_ng = us->r_ng[n];
    u->j_lt = us->j_lt[n];
    u->j_le = us->j_le[n];
    u->j_ng = us->j_ng;
    u->hands = us->hands;
    u->deck = us->deck;
    u->fold = u->o[5] * us->hands * us->deck;
    memset(u->t_done, 0, sizeof u->t_done);
    memset(u->s_done, 0, sizeof u->s_done);
    const i64 *o = u->o;
    i64 thr = o[3] + c->fee;
    i64 top = o[0];
    if (o[1] > top) top = o[1];
    if (o[2] > top) top = o[2];
    if (o[4] > top) top = o[4];
    u->buys = c->n_sets > 0 && top > thr;
    u->rank_excess = 0;
    u->n_flush = 0;
    for (int k = 0; k < 4; k++) u->n_live[k] = 0;
    if (!u->buys) return;
    band_for(c, s, o);
    for (i64 i = 0; i < c->n_sets; i++) {
        i64 m = band.base[i];
        for (int j = 0; j < u->d; j++) m -= z[u->rank[j]] * band.v[i][u->rank[j]];
        if (m > 0) {
            const i64 *rk = c->set_ranks + i * 4;
            i64 hands = 1;
            for (int q = 0; q < 4; q++) hands *= c->avail[rk[q]] - z[rk[q]];
            u->rank_excess += m * hands;
            if (c->flush_hand[i]) {
                int pos = 0;
                for (int j = 0; j < u->d; j++)
                    if ((c->set_mask[i] >> u->rank[j]) & 1) pos |= 1 << j;
                u->flush_pos[u->n_flush] = pos;
                u->flush_margin[u->n_flush] = m;
                u->n_flush++;
            }
        } else if (m + band.gmax[i] <= 0) {
            continue; /* no suited group of this rank set can make buying pay */
        }
        for (int e = set_first[i]; e < set_first[i + 1]; e++) {
            int g = set_groups[e];
            Live L;
            L.m = m;
            L.full = band.full[g];
            i64 hi = L.full;
            L.held = 0;
            L.rhopos = -1;
            for (int j = 0; j < u->d; j++) {
                int r = u->rank[j];
                L.dpos[j] = band.delta[g][r];
                if (L.dpos[j] < 0) hi -= L.dpos[j];
                if ((c->g_held[g] >> r) & 1) L.held |= 1 << j;
                if (c->g_rho[g] == r) L.rhopos = j;
            }
            if (m <= 0 && m + hi <= 0) continue; /* buying never pays against these hands */
            L.kind2 = c->g_rho[g] >= 0;
            L.cbase = L.kind2 ? c->g_count[g] - z[c->g_rho[g]] : c->g_count[g];
            int suit = (int)c->g_suit[g];
            u->live[suit][u->n_live[suit]++] = L;
        }
    }
}

/* The stands of the draws whose up-suit cards are the positions `t`: bet without the buy, bet and
   insure (when the house offers it for this hand), the up-suit part of the buy. */
static void memo_t(Unit *u, int t) {
    if (u->t_done[t]) return;
    const Ctx *c = u->c;
    int bits = rank_bits(u, t);
    i64 lt = u->r_lt + tau(c, bits, u->j_lt, u->s, 0);
    i64 le = u->r_le + tau(c, bits, u->j_le, u->s, 1);
    i64 ng = u->r_ng + tau(c, bits, u->j_ng, c->ak_floor, 0);
    const i64 *o = u->o;
    int q = u->s >= c->ak_floor;
    i64 below = q ? lt - ng : 0;
    i64 equal = q ? le - lt : 0;
    i64 above = u->hands - ng - below - equal;
    i64 base = u->deck * (o[0] * below + o[1] * equal + o[2] * above + o[3] * ng);
    u->t_base[t] = base;
    u->t_ins[t] = o[7] > 0 ? base + u->deck * o[7] * (c->odds * ng - (u->hands - ng)) : INT64_MIN;
    i64 buy = 0;
    if (u->buys) {
        buy = u->rank_excess;
        for (int i = 0; i < u->n_flush; i++)
            if (!(u->flush_pos[i] & t)) buy -= u->flush_margin[i];
        buy += suit_buy(u, (int)c->up_suit, t);
    }
    u->t_buy[t] = buy;
    u->t_done[t] = 1;
}

static i64 best_of(const Unit *u, int t, i64 excess) {
    i64 best = u->fold;
    i64 bet = u->t_base[t] + u->t_buy[t] + excess;
    if (bet > best) best = bet;
    if (u->t_ins[t] > best) best = u->t_ins[t];
    return best;
}

static i64 best_stand(Unit *u, const int taken[4]) {
    int us = (int)u->c->up_suit;
    int t = taken[us];
    memo_t(u, t);
    i64 excess = 0;
    if (u->buys)
        for (int s = 0; s < 4; s++)
            if (s != us && u->n_live[s]) excess += other_buy(u, s, taken[s]);
    return best_of(u, t, excess);
}

enum { FOLD, BET, INSURE, OPEN };

/* The sum over a rank class's draws (flush draws left out), by the patterns of positions each draw
   takes in each suit: counted, not walked, wherever the best stand does not depend on the suits
   beyond the up-suit pattern (then it is summed pattern by pattern), or is the bet everywhere (then
   the bet's parts are summed suit by suit); the other classes are walked draw by draw. */
static i64 class_total(Unit *u, const Units *us, i64 n) {
    const Ctx *c = u->c;
    int d = u->d, full = (1 << d) - 1, upsuit = (int)c->up_suit;
    int suits[5], nsuit[5], opts[5][6], nopt[5], at[5];
    int single = 1;
    for (int j = 0; j < d; j++) {
        int r = u->rank[j];
        suits[j] = 0;
        for (int s = 0; s < 4; s++)
            if ((c->pool_suit[s] >> r) & 1) suits[j] |= 1 << s;
        nsuit[j] = __builtin_popcount((unsigned)suits[j]);
        nopt[j] = 0;
        for (int m = 0; m < 16; m++)
            if ((m & ~suits[j]) == 0 && __builtin_popcount((unsigned)m) == u->z[r]) opts[j][nopt[j]++] = m;
        if (!nopt[j]) return 0;
        at[j] = 0;
        if (u->z[r] != 1) single = 0;
    }
    /* the flush draws left out: all of one suit (any suit when nothing is kept) */
    i64 fs = us->flush_suit[n];
    int fsuits = 0;
    if (single && fs >= 0 && (fs < 4 || d == 5)) {
        for (int s = 0; s < 4; s++) {
            if (fs < 4 && s != fs) continue;
            int all = 1;
            for (int j = 0; j < d; j++)
                if (!((suits[j] >> s) & 1)) all = 0;
            if (all) fsuits |= 1 << s;
        }
    }
    /* draws of each suit pattern, per suit */
    static i64 N[4][32];
    i64 total_draws = 1;
    for (int j = 0; j < d; j++) total_draws *= choose(nsuit[j], (int)u->z[u->rank[j]]);
    for (int s = 0; s < 4; s++) {
        for (int p = 0; p <= full; p++) {
            i64 ways = 1;
            for (int j = 0; j < d && ways; j++) {
                int z = (int)u->z[u->rank[j]], has = (suits[j] >> s) & 1;
                ways *= ((p >> j) & 1) ? (has ? choose(nsuit[j] - 1, z - 1) : 0) : choose(nsuit[j] - has, z);
            }
            N[s][p] = ways;
        }
    }
    for (int f = 0; f < 4; f++) {
        if (!((fsuits >> f) & 1)) continue;
        total_draws--;
        for (int s = 0; s < 4; s++) N[s][s == f ? full : 0]--;
    }
    if (total_draws <= 0) return 0;
    i64 total = 0;
    if (!u->buys) {
        for (int t = 0; t <= full; t++) {
            if (!N[upsuit][t]) continue;
            memo_t(u, t);
            total += N[upsuit][t] * best_of(u, t, 0);
        }
        return total;
    }
    /* bounds of the other suits' part of the buy */
    i64 lo = 0, hi = 0;
    for (int s = 0; s < 4; s++) {
        if (s == upsuit || !u->n_live[s]) continue;
        i64 mn = INT64_MAX, mx = INT64_MIN;
        for (int p = 0; p <= full; p++) {
            if (!N[s][p]) continue;
            i64 b = other_buy(u, s, p);
            if (b < mn) mn = b;
            if (b > mx) mx = b;
        }
        lo += mn;
        hi += mx;
    }
    int action = OPEN, decided = 1;
    for (int t = 0; t <= full && decided; t++) {
        if (!N[upsuit][t]) continue;
        memo_t(u, t);
        i64 bet_lo = u->t_base[t] + u->t_buy[t] + lo, bet_hi = u->t_base[t] + u->t_buy[t] + hi;
        i64 ins = u->t_ins[t];
        int a;
        if (bet_lo >= u->fold && bet_lo >= ins) a = BET;
        else if (u->fold >= bet_hi && u->fold >= ins) a = FOLD;
        else if (ins >= bet_hi && ins >= u->fold) a = INSURE;
        else a = OPEN;
        /* every pattern decided, and bets either everywhere or nowhere */
        if (a == OPEN || (action != OPEN && (a == BET) != (action == BET))) decided = 0;
        action = a;
    }
    if (decided) {
        if (action == BET) {
            for (int t = 0; t <= full; t++)
                if (N[upsuit][t]) total += N[upsuit][t] * (u->t_base[t] + u->t_buy[t]);
            for (int s = 0; s < 4; s++) {
                if (s == upsuit || !u->n_live[s]) continue;
                for (int p = 0; p <= full; p++)
                    if (N[s][p]) total += N[s][p] * other_buy(u, s, p);
            }
        } else {
            for (int t = 0; t <= full; t++)
                if (N[upsuit][t]) total += N[upsuit][t] * (u->fold > u->t_ins[t] ? u->fold : u->t_ins[t]);
        }
        return total;
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
            if (((fsuits >> f) & 1) && taken[f] == full) skip = 1;
        if (!skip) total += best_stand(u, taken);
        int j = 0;
        while (j < d && ++at[j] == nopt[j]) at[j++] = 0;
        if (j == d) break;
    }
    return total;
}

/* Sum of the best stand over every draw of each unit. Returns 0, or -1 when a table is too large. */
int rp_units(const Ctx *c, const Units *us) {
    if (c->n_sets > MAX_SETS || c->n_groups > MAX_GROUPS) return -1;
    band.valid_v = band.valid_d = 0;
    group_sets(c);
    Unit *u = &unit;
    for (i64 n = 0; n < us->n; n++) {
        prepare(u, c, us, n);
        const i64 *cards = us->cards + n * 5;
        if (cards[0] >= 0) {
            int taken[4] = {0, 0, 0, 0};
            for (int i = 0; i < 5 && cards[i] >= 0; i++) {
                int r = (int)(cards[i] / 4), s = (int)(cards[i] % 4);
                for (int j = 0; j < u->d; j++)
                    if (u->rank[j] == r) taken[s] |= 1 << j;
            }
            us->total[n] = best_stand(u, taken);
        } else {
            us->total[n] = class_total(u, us, n);
        }
    }
    return 0;
}
