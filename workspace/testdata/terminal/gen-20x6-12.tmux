20 6 0 0


[47m   [90mbetawrap alphaxü█
日本日本éstopbeta中
文ü betastopéggggggg
gggggggggggggggggg
