"""How a drawn situation is shown, asked and answered on any page: the catalogue of kinds, the table
drawings, answer reading, mistakes named."""
