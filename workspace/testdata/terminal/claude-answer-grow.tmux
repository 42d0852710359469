140 40 2 36
  4. Signal a sell on the day it crosses back below.
  5. Size each position so that one loss costs at most 1% of the account.

  [1mCode

[0m[39m[49m  [34mfunc[33m [39msma(closes [][34mfloat64[33m,[39m [33mn[39m [34mint[33m)[39m []float64 {
        out := [36mmake[39m([][34mfloat64[39m, [36mlen[39m(closes))
        sum := [32m0.0
[39m        [34mfor[39m i, c := [34mrange[39m closes {
                sum += c
                [34mif[39m i >= n {
                        sum -= closes[i-n]
                }
                out[i] = sum / [34mfloat64[39m(min(i+[32m1[39m, n))
        }
        [34mreturn[39m out
  }

  [1mBacktest[0m[39m[49m [1msummary

[0m[39m[49m  ┌────────┬────────┬──────────┬────────┐
  │ Symbol │ Trades │ Win rate │ Return │
  ├────────┼────────┼──────────┼────────┤
  │ AAPL   │     14 │      57% │  18.2% │
  ├────────┼────────┼──────────┼────────┤
  │ MSFT   │     11 │      55% │  12.9% │
  ├────────┼────────┼──────────┼────────┤
  │ NVDA   │     17 │      47% │  31.4% │
  └────────┴────────┴──────────┴────────┘

  Costs matter: with a few basis points per trade the edge shrinks, so test with realistic fees and slippage before you trust any of these
  numbers.

[38;2;153;153;153m✻[39m [38;2;153;153;153mBrewed[39m [38;2;153;153;153mfor[39m [38;2;153;153;153m7s

[38;2;136;136;136m────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
[39m❯ [7m 
[0m[38;2;136;136;136m[49m────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
[39m  [38;2;153;153;153m?[39m [38;2;153;153;153mfor[39m [38;2;153;153;153mshortcuts[39m [38;2;153;153;153m·[39m [38;2;153;153;153m←[39m [38;2;153;153;153mfor[39m [38;2;153;153;153magents

