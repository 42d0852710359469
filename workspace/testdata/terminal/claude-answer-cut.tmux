80 24 2 22


[38;2;80;80;80m[48;2;55;55;55m❯ [38;2;255;255;255mExplain a moving average crossover strategy[39m                                   
                    

[38;2;255;255;255m[49m●[39m [1mMoving average crossover[0m[39m[49m                                                      
                    

  A crossover strategy buys when a [1mfast[0m[39m[49m moving average rises above a [1mslow[0m[39m[49m one an
d sells when it
  falls back below. It is simple, easy to test, and a good first baseline before
 anything cleverer.

  [1mSteps[0m[39m[49m                                                                         
                    

  1. Load daily closes for the symbol, oldest first.
  2. Compute the 20-day and the 50-day simple moving averages.
  3. Signal a buy on the day the fast average crosses above the slow one.

[38;2;136;136;136m────────────────────────────────────────────────────────────────────────────────
────────────────────
[38;2;153;153;153m❯ [7m[39m [0m[39m[49m                                                                             
                    
