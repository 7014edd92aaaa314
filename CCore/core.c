int rk_core_placeholder_(void) { return 0; }
