"""The hidden hands: what one seat knows of them (:mod:`.knowledge`, from its view), with
the what-if constraints it assumes (:mod:`.constrain`), the deals consistent with that,
counted, enumerated and sampled exactly (:mod:`.deals`), and the seeded chunks that make
sampling the same on any number of workers (:mod:`.chunks`)."""
