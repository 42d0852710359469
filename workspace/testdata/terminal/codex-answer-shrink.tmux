80 24 2 19
[1;2m[38;2;238;238;238m[48;2;68;68;68m› [0m[38;2;238;238;238m[48;2;68;68;68mExplain a moving average crossover strategy
[39m[49m  [38;2;147;153;178m}
[39m 
  [1;3m[38;2;249;226;175m### Backtest summary
[0m[39m[49m 
[1m[38;2;249;226;175m   Symbol    Trades    Win rate    Return                                       
[0m[39m[49m  [2m━━━━━━━━  ━━━━━━━━  ━━━━━━━━━━  ━━━━━━━━
[0m[39m[49m   AAPL          14         57%     18.2%
  [2m────────  ────────  ──────────  ────────
[0m[39m[49m   MSFT          11         55%     12.9%
  [2m────────  ────────  ──────────  ────────
[0m[39m[49m   NVDA          17         47%     31.4%
 
  Costs matter: with a few basis points per trade the edge shrinks, so test with
  realistic fees and slippage before you trust any of these numbers.
 
[2m  Worked for 7s • 18:22                                                         
[0m[39m[49m 
 
[1m›[0m[39m[49m [2mAsk Codex to do anything
[0m[39m[49m 
  [38;2;246;226;183mGPT-6-Sol default Fast[39m · [38;2;171;223;167m/var/tmp/alice-record-agents.pMRBUB/codex-answer-
[39m  [38;2;171;223;167mshrink/ws[39m · [38;2;245;194;231mMoving average crossover
[39m  [1m←[0m[39m[49m for agents · [1m?[0m[39m[49m for shortcuts                       ⚠ [38;2;196;167;103m1 warning[39m · [1mf2[0m[39m[49m to view
