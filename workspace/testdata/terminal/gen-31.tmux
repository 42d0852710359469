80 24 0 0
[38;2;145;22;91m[46m日本 語 █ x é[42m中文█-[46mop alpha wrap



[38;2;114;184;17m[41m█ -stopüxbetastop█-alphaalpha beta 語beta- 中文wrapbeta█betabeta語 é- │ üstop中
文 pwrap stopxéü[39m[49m                                                             

                                               [38;2;114;184;17m[41m-beta語beta beta 語stop日本ééxalp
ha█日本 █aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
aaaaaaaaaaaaaaaa[39m[49m                                                    [38;2;114;184;17m[41m語 語語alpha
 kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkknnnnnnnnnnnn













