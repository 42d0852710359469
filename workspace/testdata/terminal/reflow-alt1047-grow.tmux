100 30 1 19
abc


















X










