20 6 0 0
[48;5;217m                   [5:3md

alpha stop



