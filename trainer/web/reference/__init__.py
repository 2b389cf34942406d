"""The public reference: rules, worked examples, the payout cheat sheet, the glossary, presets, the
advisor."""
