// Package elicit is the schema side of ACP elicitations (elicitation/create): a form's
// requestedSchema parsed and validated once into a list of typed fields, a person's answer
// checked against it, and a url elicitation's URL checked before anyone is asked to open it.
// It knows no session, connection or transcript (it does not import acp).
//
// Guarantees, whatever the agent sends:
//   - Parse accepts only ACP's restricted form schema (an object of string, number, integer,
//     boolean and multi-select properties) within fixed bounds (MaxSchemaBytes, MaxFields,
//     MaxChoices, MaxName, text lengths); anything else is an error worded for the agent's
//     author, never a panic and never a guess. Fields keep the agent's order.
//   - A parsed Field is the whole meaning of its property: type, required, secret, format,
//     choices, bounds, pattern and a default already checked against the type. Its JSON is what
//     the window renders a form from, so no other parser of the schema exists.
//   - CheckContent is the one authority on an answer: every field known, required ones
//     present, each value of its field's type and within its bounds, normalised as it is sent
//     to the agent; a refusal is a *FieldError naming the field.
//   - A secret field's value appears only in what CheckContent returns for the agent; Masked
//     gives the copy everything else keeps (SecretMask in its place).
//   - CheckURL accepts only absolute http(s) URLs with a host and no user info, and returns
//     the host as a person should read it (an internationalised name in punycode).
package elicit
