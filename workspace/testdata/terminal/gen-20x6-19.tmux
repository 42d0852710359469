20 6 0 0
[38;2;181;247;146m[40m日本alpha日本
mmmmmmmmmmmmmmmmmmmm
wrapppp-日本 語 éx a
lphaé wralpha│- 語al
phabeta語 beta- stop
beta
