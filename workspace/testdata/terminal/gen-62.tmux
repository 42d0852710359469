80 24 0 0
[91m[46mlxlak[39m[44m                                [49m                                           
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap[33mqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq[91m[44m日
[33m[49mqqqq
[91m[44m█ alphawrap語-beta é-wrap alpha│ü







[39m[49m                                                                              [33m日











