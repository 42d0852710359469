80 24 0 0




[43m日語xstop-üx -│ x-█語          


[49m [43mbetabetawrap wrapü ü中文- é 語 éalpha 
















