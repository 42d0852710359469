80 24 0 0











mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm





[32m[48;5;40mbeta中文é-[39m[49m [32m[48;5;40m日本alphaa中文 中文pstop é日本 │ [39m[49m                                    
[48;5;40m                    [32mwrap wrapbetaé日本betaéwrap--[45malphaéwrap ébeta│ stop日本 日本
ü [38;5;205m[49malphaalpha│x中文 xstop日本│wrap




