"""The rules' refusals said for people: each refusal message id of the engine with its phrase.

A refusal is said to the player who pressed, on their phone, in their language (never on the
pub's screen). The engine's message ids are its English with holes; the phrase is written for
people: no rule code, "they" for a player, "yours" for the one refused. The messages of what
happened are in ``engine_words``, which says both.
"""

from __future__ import annotations

from firmware.words.phrases import N_, NN_, Phrase

#: Each refusal message id the engine says (and the parts refusals are made of), with its phrase.
REFUSALS: dict[str, Phrase] = {
    "it is %(q)s's turn to %(verb)s, not %(p)s's": N_("it is %(q)s's turn to %(verb)s, not yours"),
    "it is %(q)s's turn to throw in the open throw, not %(p)s's":
        N_("it is %(q)s's turn to throw in the open throw, not yours"),
    "it is %(q)s's turn to %(verb)s": N_("it is %(q)s's turn to %(verb)s"),
    "betting goes clockwise": N_("betting goes clockwise"),
    "a bet is one chip in two-hand Bidou": N_("a bet is one chip in two-hand Bidou"),
    "a raise is one chip in two-hand Bidou": N_("a raise is one chip in two-hand Bidou"),
    "a bet is 1 to %(n)s chips in multi-hand Bidou":
        N_("a bet is 1 to %(n)s chips in multi-hand Bidou"),
    "a raise is 1 or %(n)s chips in multi-hand Bidou":
        N_("a raise is 1 or %(n)s chips in multi-hand Bidou"),
    "both players have thrown and the betting is open":
        N_("both players have thrown and the betting is open"),
    "both players have thrown and the betting is open under two-hand rules":
        N_("both players have thrown and the betting is open under the two-hand rules"),
    "every player has thrown and the betting is open":
        N_("every player has thrown and the betting is open"),
    "every player has thrown": N_("every player has thrown"),
    "both players have thrown": N_("both players have thrown"),
    "everyone has thrown": N_("everyone has thrown"),
    "the betting is open": N_("the betting is open"),
    "the betting begins when %(what)s": N_("the betting begins when %(what)s"),
    "there is nothing to stand on": N_("there is nothing to stand on"),
    "%(p)s may %(options)s": N_("%(p)s may %(options)s"),
    "%(p)s may %(verbs)s": N_("%(p)s may %(options)s"),
    "he may %(options)s": N_("they may %(options)s"),
    "%(p)s may do nothing": N_("%(p)s may do nothing"),
    "%(verb)s": N_("%(verb)s"),
    "%(verb)s %(chips)s": N_("%(verb)s %(chips)s"),
    "%(verb)s %(n)s to %(m)s chips": N_("%(verb)s %(n)s to %(m)s chips"),
    "%(p)s may not %(verb)s now": N_("%(p)s may not %(verb)s now"),
    "%(verb)s belongs to Montevideo": N_("%(verb)s belongs to Montevideo"),
    "in two-hand Bidou %(what)s": N_("in two-hand Bidou %(what)s"),
    "in multi-hand Bidou %(what)s": N_("in multi-hand Bidou %(what)s"),
    "%(verb)s is not a betting action": N_("%(verb)s is not a betting action"),
    "captain rolls go in seat order": N_("captain rolls go in seat order"),
    "%(p)s rolls before %(q)s": N_("%(p)s rolls before %(q)s"),
    "%(p)s has no chips left and is out of the game (he has won)":
        N_("%(p)s has no chips left and is out of the game (they have won)"),
    "%(p)s holds %(chips)s and cannot bet %(n)s": N_("%(p)s holds %(chips)s and cannot bet %(n)s"),
    "bets are the bettor's own chips": N_("bets are the bettor's own chips"),
    "%(p)s is not in this captain roll": N_("%(p)s is not in this captain roll"),
    "only %(listed)s roll again after the tie": N_("only %(names)s roll again after the tie"),
    "%(p)s is not in this hand and cannot bet now":
        N_("%(p)s is not in this hand and cannot bet now"),
    "%(p)s may %(verb)s %(n)s to %(m)s chips in no-limit Montevideo, not %(k)s":
        N_("%(p)s may %(verb)s %(n)s to %(m)s chips in no-limit Montevideo, not %(k)s"),
    "%(p)s must throw at least once before standing":
        N_("%(p)s must throw at least once before standing"),
    "the game starts with the captain roll": N_("the game starts with the captain roll"),
    "the round starts with the captain roll": N_("the round starts with the captain roll"),
    "%(p)s rolls one die": N_("%(p)s rolls one die"),
    "each player rolls one die, and %(p)s rolls next":
        N_("each player rolls one die, and %(p)s rolls next"),
    "the captain is already decided; nobody rolls now":
        N_("the captain is already decided; nobody rolls now"),
    "%(p)s throws": N_("%(p)s throws"),
    "%(p)s throws again or stands": N_("%(p)s throws again or stands"),
    "%(p)s throws or stands": N_("%(p)s throws or stands"),
    "%(p)s is throwing": N_("%(p)s is throwing"),
    "throw or stand": N_("throw or stand"),
    "the betting opens when everyone has thrown": N_("the betting opens when everyone has thrown"),
    "the open throw is over": N_("the open throw is over"),
    "there is no betting in an open throw": N_("there is no betting in an open throw"),
    "this hand's betting is over": N_("this hand's betting is over"),
    "nobody has bet yet, so there is nothing to %(verb)s":
        N_("nobody has bet yet, so there is nothing to %(verb)s"),
    "nobody has bet yet, so %(p)s cannot %(verb)s":
        N_("nobody has bet yet, so %(p)s cannot %(verb)s"),
    "pass, bet or bet the pot": N_("pass, bet or bet the pot"),
    "nobody has bet the pot, so %(p)s cannot call it":
        N_("nobody has bet the pot, so %(p)s cannot call it"),
    "call %(n)s, raise or drop": N_("call %(n)s, raise or drop"),
    "%(p)s has raised after the pot bet": N_("%(p)s has raised after the pot bet"),
    "a player": N_("a player"),
    "%(p)s must call %(n)s, raise or drop": N_("%(p)s must call %(n)s, raise or drop"),
    "nobody has bet chips after the pot bet": N_("nobody has bet chips after the pot bet"),
    "%(p)s may call the pot for nothing": N_("%(p)s may call the pot for nothing"),
    "the betting is already open": N_("the betting is already open"),
    "raise instead of betting again": N_("raise instead of betting again"),
    "only the player opening the betting may bet the pot":
        N_("only the player opening the betting may bet the pot"),
    "it is open already": N_("it is open already"),
    "%(p)s has %(n)s chips, not more than the %(m)s to call, so can only call all-in or drop":
        N_("%(p)s has %(n)s chips, no more than the %(m)s to call, so can only call all-in "
           "or drop"),
    "every other player in the hand is all-in, so nobody could answer a raise":
        N_("every other player in the hand is all-in, so nobody could answer a raise"),
    "there is already a bet of %(chips)s": N_("there is already a bet of %(chips)s"),
    "%(p)s cannot raise by %(chips)s": N_("%(p)s cannot raise by %(chips)s"),
    "calling and raising takes %(chips)s and he holds %(n)s":
        N_("calling and raising takes %(chips)s and they hold %(n)s"),
    "%(p)s cannot raise": N_("%(p)s cannot raise"),
    "calling and raising takes %(chips)s and the centre and %(p)s's own chips hold %(n)s":
        N_("calling and raising takes %(chips)s and the centre and %(p)s's own chips hold "
           "%(n)s"),
    "%(p)s has no chip to bet": N_("%(p)s has no chip to bet"),
    "the centre is empty and %(p)s holds none": N_("the centre is empty and %(p)s holds none"),
    "no dice wait to be settled now": N_("no dice wait to be settled now"),
    "values are settled only when the rules show the dice":
        N_("values are settled only when the rules show the dice"),
    "%(names)s's exposed values are being settled before %(before)s":
        N_("%(names)s's shown dice are being settled before %(before)s"),
    "nothing else is played until then": N_("nothing else is played until then"),
    "%(p)s has no exposed values waiting": N_("%(p)s has no shown dice waiting"),
    "%(names)s has": N_("%(names)s has"),
    "%(names)s have": N_("%(names)s have"),
    "%(p)s's exposed values are a throw of three dice, not %(n)s":
        N_("%(p)s's shown dice are a throw of three dice, not %(n)s"),
    "%(p)s's exposed values are a captain roll of one die, not %(n)s":
        N_("%(p)s's shown dice are a captain roll of one die, not %(n)s"),
    "the game is over; start a new game": N_("the game is over; start a new game"),
    "%(p)s is not a player in this game": N_("%(p)s is not a player in this game"),
    "%(word)s is not a verb of the game record": N_("%(word)s is not a verb of the game record"),
    "%(word)s is not a verb; the verbs are %(listed)s":
        N_("%(word)s is not a verb; the verbs are %(names)s"),
    "settle takes the values of a throw (three dice) or of a captain roll (one die), not "
    "%(n)s":
        N_("a settle takes the values of a throw (three dice) or of a captain roll (one die), "
           "not %(n)s"),
    "a settle says who settled the values: %(listed)s, not %(word)s":
        N_("a settle says who settled the values: %(names)s, not %(word)s"),
    "%(verb)s takes %(numbers)s, not %(n)s":
        NN_("%(verb)s takes %(n)s number, not %(m)s",
            "%(verb)s takes %(n)s numbers, not %(m)s", 0),
    "only a settle says who settled it, not a %(verb)s":
        N_("only a settle says who settled it, not a %(verb)s"),
    "%(word)s is not a whole number": N_("%(word)s is not a whole number"),
    "a die shows 1 to 6, not %(n)s": N_("a die shows 1 to 6, not %(n)s"),
    "a %(verb)s is at least one chip, not %(n)s": N_("a %(verb)s is at least one chip, not %(n)s"),
}
