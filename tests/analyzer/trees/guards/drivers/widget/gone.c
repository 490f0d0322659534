int gone;
