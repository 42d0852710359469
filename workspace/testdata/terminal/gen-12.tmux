80 24 0 0


















[47m           [90mbetawrap alphaxü█日本日本éstopbeta中文ü betastopégggggggggggggggggggg
ggggggggggggggggggggggggggggggggggggggggggggggggggggggg




