// Runs in <head> before the page is drawn: marks that scripts run, so the CSS may fold away what a
// script can unfold again (the table in words), without hiding anything when scripts are off.
document.documentElement.classList.add("js");
