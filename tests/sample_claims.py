"""Claims about the bundled movie sample, one per verdict and kind, that the surfaces' tests check."""

DIRECTOR = "Alejandro González Iñárritu"
TRUE = f"21 Grams was directed by {DIRECTOR}."
FALSE = "21 Grams was directed by John Woo."
TWO_HOPS = "Naomi Watts starred in a film written by Guillermo Arriaga."
WRONG_YEAR = "21 Grams was released in 1999."
UNKNOWN = "Zorblax Quentin directed 21 Grams."
