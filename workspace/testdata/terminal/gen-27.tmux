80 24 0 0










日wrapü │ 日本語

[48;5;124mwrapx中[49m [48;5;124m│日本 betastop│wrap -ü│ üéstop│wrapx alphaalpha beta中文ü日本alpha-é




[49m-x日本 中文█alpha語 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb

    alpha中文 -│█ alpha│- -xalphastop
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm日本日本 █mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrapsssssssssssssssssssssssssssss

                           xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
