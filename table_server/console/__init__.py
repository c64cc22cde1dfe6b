"""The referee's console: PIN-guarded pages of forms to correct, set up and teach the table.

``referee`` (login, camera picture, needs-a-look queue, corrections, set-up, export, QR codes),
``referee_forms`` (the forms read in the referee's words), ``dice_teach`` (the "Dice" page) and
``league_seats`` (a rostered player in each seat). Apart from the pages everyone sees, since
every view here is the referee's alone.
"""
