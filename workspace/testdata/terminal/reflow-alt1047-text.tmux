80 10 5 1
one
abcdXfghijabcdefghijabcdefghijabcdefghij
$ 







