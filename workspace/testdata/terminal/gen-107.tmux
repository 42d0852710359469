80 24 0 0

[46m                                                                 [4;5m[38;5;195mx beta xalpha x
-日本 alpha│ │ stop │wrapbetaü-語é





















