80 24 0 0
[38;2;230;146;98m[41malpha beta stop語 │alpha中文alpha日本beta[39m                                      [38;2;230;146;98mk





[39m                                                                               [38;2;230;146;98mi

















