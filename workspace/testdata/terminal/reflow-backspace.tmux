60 24 60 0
abcdeabcdeabcdeabcdeabcdeabcdeabcdeabcdeabcdeabcdeabcdeabcdQ
abcdeabcdeabcdeabcdeabcdeabcdeabcdeabcde






















