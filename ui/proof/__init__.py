"""The proof page: the bound checked on many orders, repeats and an adversary."""
