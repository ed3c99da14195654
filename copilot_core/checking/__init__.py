"""Whether an answer's claims are what the tools returned: the matcher, grounding, claims, marks."""
