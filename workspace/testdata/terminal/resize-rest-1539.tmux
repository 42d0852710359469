80 15 0 0






            [42m🙂中文alpha 語é │ 日本█ x[49m                                         [42m日





[41mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmxxxxxxxxxxxxxxxxxxxx
     xxxxxộ

