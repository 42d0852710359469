100 10 7 9
top







bottom
      X
