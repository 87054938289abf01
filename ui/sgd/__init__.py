"""The perceptron as stochastic gradient descent on the hinge loss."""
