20 6 0 0
[36m[58;5;196m│ │ --ü █中文- wvtww
vd[0m[39m[49m                [36m[58;5;196mab


qqqqqqqqqqqqqqqqqqqq
qqwrap beta-stop │be
