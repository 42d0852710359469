80 24 0 0
        [40mstop█ wrapéé日本wrap stop









[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap










                           [96m[40m日本wrapstop │
[39m日本日本alpha [96mwrap語stop│- [39m                  
