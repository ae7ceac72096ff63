SELECT /* comment */ 1 -- trailing
