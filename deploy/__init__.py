"""Deployment of a class past one process: N app servers, Redis and nginx."""
