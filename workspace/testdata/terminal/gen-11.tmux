80 24 0 0
- é wrapwrap█alpha█wrap語 éalphatakla~

stopx│stopalpha stop 日本alpha 語█ 日本 xstop █ │é stopx ü語 é中文x中文alpha│ be
ta-│beta█beta wrapbeta[40mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
[49m                                                       [33m[40mstopwrapxstop 語üxbeta xb
etawrapalphawrapstop 語xx中文x █ 中文 xwrapalpha█ stopalpha -wrap│betaa
[39m[49m                                                                       [33m[40maltbeta 
日

[39mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap







[49m                                                                              [33m[40mab



mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm

