"""The web's shared ground: the door to the store, who is asking, errors, security, languages,
settings, serving."""
