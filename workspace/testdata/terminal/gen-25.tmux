80 24 0 0
[93mü é -x x語ü█ █ x█ü















mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
ü übeta stop││



[39m             語 日本語│wrap beta
                 [90mlphabetawrap │ [39m                                              日
[93m日本üé █ -日本 alphax│日本 │語wrap-éalpha stop中文中文 üstop 
