80 24 0 0
[38;2;181;247;146m[40m日本alpha日本




mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrapppp-日本 語 éx alphaé wrap [39m[49m [38;2;181;247;146m[40malpha│- 語alphabeta語 




[48;5;60m日ü 中文 wrapalpha-[40m█語 語übeta wrapé xéstop[39m  [48;5;60m                                   
                                                                              [38;2;181;247;146m[40m日
alphaalphabeta- stopbeta










