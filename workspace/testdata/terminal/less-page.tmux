80 24 1 23
line of text number 24
line of text number 25
line of text number 26
line of text number 27
line of text number 28
line of text number 29
line of text number 30
line of text number 31
line of text number 32
line of text number 33
line of text number 34
line of text number 35
line of text number 36
line of text number 37
line of text number 38
line of text number 39
line of text number 40
line of text number 41
line of text number 42
line of text number 43
line of text number 44
line of text number 45
line of text number 46
:
