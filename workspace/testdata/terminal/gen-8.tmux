80 24 0 0
[36m[58;5;196m│ │ --ü █中文- wvtwwv


cd[0m[39m[49m                                                                            [36m[58;5;196mab











qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqwrap beta-st
op │beta語[0m[39m[49m   [36m[58;5;196mxé- ü é語日本üalpha日本 █      


[0m[39m[49m                                                                              日




