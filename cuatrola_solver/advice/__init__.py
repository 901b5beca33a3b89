"""Advice: the odds of every call (:mod:`.bidding`, ``advise``) and of every card
(:mod:`.cardplay`, ``hint``) over the deals a seat cannot tell apart, within a search
:class:`~.budget.Budget`, with their statistics (:mod:`.stats`)."""
