60 24 29 21
                                     -ü語█wrapbeta é 語 │alp
ha│é│ 日本 -x 語qqqq
qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
mmmmmmmmmmmmmmmmmmmmwrap

é - stopbeta│ 日本-中文中文ü mkawl~qt




                                                            
                  ab
█x- │█中文中文ü █ x alpha







  [43mbeta日本stop -日本 日本 語ü


