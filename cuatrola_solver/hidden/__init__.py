"""The hidden hands: what one seat knows of them (:mod:`.knowledge`, the value, and
:mod:`.inference`, its derivation from the seat's view), with the what-if constraints it
assumes (:mod:`.constrain`), the deals consistent with that, counted, enumerated and
sampled exactly (:mod:`.deals`), and the seeded chunks that make sampling the same on any
number of workers (:mod:`.chunks`).

The imports run one way: :mod:`.knowledge` imports nothing of this layer; :mod:`.deals`
imports it; :mod:`.constrain` imports both; :mod:`.inference` imports all three."""
