60 10 1 4
abc



X





