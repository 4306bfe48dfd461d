"""The poker room's commands (``@command``): tables, hands and rake boxes (``tables``),
tournaments (``tournaments``), chemin de fer coups (``chemin_de_fer``)."""
