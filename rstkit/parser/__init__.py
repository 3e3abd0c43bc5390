"""rstkit's own shift-reduce RST parser (optional extra ``parser``: torch, tqdm).

* :mod:`.transition` the transition system and static oracle (pure Python)
* :mod:`.features` sentence/paragraph boundary features of states (pure Python)
* :mod:`.encoders` EDU encoders: ``scratch`` (word embeddings + BiLSTM) and ``minilm``
* :mod:`.model` the scorer of states, :mod:`.decode` greedy/beam decoding,
  :mod:`.train` training, :mod:`.modeldir` saving and loading a model directory

torch is imported only by the modules that need it, so importing this package is cheap.
"""
