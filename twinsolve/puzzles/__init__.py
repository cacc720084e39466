"""The rules of each puzzle: instance type, parse / format, verify, objective, render."""
