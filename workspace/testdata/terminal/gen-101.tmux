80 24 0 0


[38;2;231;123;66mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
█ alpha- stop x日本│wrapbeta xstop wrap




[9m[44m日[0m[38;2;231;123;66m[49m 語é [39m                                           [44m                             
[9m[38;2;231;123;66malpha│ 














