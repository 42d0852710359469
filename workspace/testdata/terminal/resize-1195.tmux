79 23 79 0
[35m[44m語betawrap│alpha ü日本wrap 語日本 alpha日本 │中文- 中文stop wrapwrapstopộstopwr
[39m[49m                                                   [44m語 語 ü█ alphaü beta beta │日





















