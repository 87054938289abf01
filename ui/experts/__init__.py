"""Learning from experts: the weighted majority on a committee of analysts."""
