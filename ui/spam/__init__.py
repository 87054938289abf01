"""A spam filter: the perceptron on word counts of e-mails."""
