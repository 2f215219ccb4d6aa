"""Hyper-parameters as name=value pairs -- mirrors TF 1.15's
contrib/training/python/training/hparam.py (`tf.contrib.training.HParams`).

    hparams = tf.contrib.training.HParams(learning_rate=0.1, layers=[64, 32], act='relu')
    hparams.parse('learning_rate=0.3,layers=[128,64]')    # e.g. from a --hparams flag
    hparams.learning_rate                                  # 0.3

Each hyper-parameter has a type, taken from its first value (the element type for a list).
`parse` reads a string with TF's small grammar (below), `override_from_dict` and
`parse_json` take a dict or JSON; all of them go through `set_hparam`, which refuses a value
that does not fit the type (a float for an int, a string for a number, a bool for an int,
a list for a scalar...). The HParamDef protocol buffer (hparam_def=, to_proto) is not kept.
"""
import json
import numbers
import re

__all__ = ["HParams", "parse_values"]

# One "name=value" clause: a name (letters, digits, '_' and '.'), an optional list index,
# then a scalar (anything but ',' and '[') or a bracketed list; clauses are separated by ','.
PARAM_RE = re.compile(r"""
  (?P<name>[a-zA-Z][\w\.]*)      # variable name: "var" or "x"
  (\[\s*(?P<index>\d+)\s*\])?    # (optional) index: "1" or None
  \s*=\s*
  ((?P<val>[^,\[]*)              # single value: "a" or None
   |
   \[(?P<vals>[^\]]*)\])         # list of values: None or "1,2,3"
  ($|,\s*)""", re.VERBOSE)


def _parse_fail(name, var_type, value, values):
    raise ValueError("Could not parse hparam '%s' of type '%s' with value '%s' in %s"
                     % (name, var_type.__name__, value, values))


def _reuse_fail(name, values):
    raise ValueError("Multiple assignments to variable '%s' in %s" % (name, values))


def _process_scalar_value(name, parse_fn, var_type, m_dict, values, results):
    """'s=5' stores results['s'] = 5; 'arr[1]=5' stores results['arr'] = {1: 5}."""
    try:
        parsed_value = parse_fn(m_dict["val"])
    except ValueError:
        _parse_fail(name, var_type, m_dict["val"], values)
    if not m_dict["index"]:
        if name in results:
            _reuse_fail(name, values)
        results[name] = parsed_value
        return
    if name in results:
        if not isinstance(results.get(name), dict):   # already assigned as a whole
            _reuse_fail(name, values)
    else:
        results[name] = {}
    index = int(m_dict["index"])
    if index in results[name]:
        _reuse_fail("{}[{}]".format(name, index), values)
    results[name][index] = parsed_value


def _process_list_value(name, parse_fn, var_type, m_dict, values, results):
    """'arr=[1,2,3]' stores results['arr'] = [1, 2, 3] (elements split on ',' and ' ')."""
    if m_dict["index"] is not None:
        raise ValueError("Assignment of a list to a list index.")
    elements = filter(None, re.split("[ ,]", m_dict["vals"]))
    if name in results:
        _reuse_fail(name, values)
    try:
        results[name] = [parse_fn(e) for e in elements]
    except ValueError:
        _parse_fail(name, var_type, m_dict["vals"], values)


def _cast_to_type_if_compatible(name, param_type, value):
    """`value` as a `param_type`, refusing the casts that would lose meaning: a non-string
    to a string, a bool to or from anything else, a non-integer to an int, a non-number to a
    number."""
    fail_msg = "Could not cast hparam '%s' of type '%s' from value %r" % (name, param_type,
                                                                         value)
    if type(value) == param_type:  # noqa: E721  (isinstance(True, int) is too weak)
        return value
    if issubclass(param_type, type(None)):
        return value
    if issubclass(param_type, (str, bytes)) and not isinstance(value, (str, bytes)):
        raise ValueError(fail_msg)
    if issubclass(param_type, bool) != isinstance(value, bool):
        raise ValueError(fail_msg)
    if issubclass(param_type, numbers.Integral) and not isinstance(value, numbers.Integral):
        raise ValueError(fail_msg)
    if issubclass(param_type, numbers.Number) and not isinstance(value, numbers.Number):
        raise ValueError(fail_msg)
    return param_type(value)


def _bool_parser(name, type_, values):
    def parse_bool(value):
        if value in ("true", "True"):
            return True
        if value in ("false", "False"):
            return False
        try:
            return bool(int(value))
        except ValueError:
            _parse_fail(name, type_, value, values)
    return parse_bool


def parse_values(values, type_map, ignore_unknown=False):
    """Parses 'name=value,...' into a dict, each value parsed by its type in `type_map`:
    'x=5,L=[1,2],arr[1]=3' -> {'x': 5, 'L': [1, 2], 'arr': {1: 3}}.

    Ints and floats as Python writes them; bools as true/false/True/False or an integer;
    strings without ',', ' ' or brackets; lists in brackets. A name given twice, a list
    assigned to an index, an unknown name (unless `ignore_unknown`) or a malformed clause
    raise ValueError."""
    results = {}
    pos = 0
    while pos < len(values):
        m = PARAM_RE.match(values, pos)
        if not m:
            raise ValueError("Malformed hyperparameter value: %s" % values[pos:])
        pos = m.end()
        m_dict = m.groupdict()
        name = m_dict["name"]
        if name not in type_map:
            if ignore_unknown:
                continue
            raise ValueError("Unknown hyperparameter type for %s" % name)
        type_ = type_map[name]
        parse = _bool_parser(name, type_, values) if type_ == bool else type_
        if m_dict["val"] is not None:
            _process_scalar_value(name, parse, type_, m_dict, values, results)
        elif m_dict["vals"] is not None:
            _process_list_value(name, parse, type_, m_dict, values, results)
        else:
            _parse_fail(name, type_, "", values)
    return results


class HParams:
    """A set of hyper-parameters, each an attribute: HParams(learning_rate=0.1).lr..."""

    _HAS_DYNAMIC_ATTRIBUTES = True

    def __init__(self, hparam_def=None, model_structure=None, **kwargs):
        # name -> (type, is_list): the type of the value, or of a list's elements.
        self._hparam_types = {}
        self._model_structure = model_structure
        if hparam_def:
            raise NotImplementedError(
                "HParams(hparam_def=...): the HParamDef protocol buffer is not implemented "
                "in the sandbox; pass the values as keyword arguments, or use parse_json.")
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name, value):
        """Adds the hyper-parameter `name`; its type is that of `value` (a list's first
        element for a list, which must not be empty)."""
        # A name that is already an attribute (a method such as 'values') is refused.
        if getattr(self, name, None) is not None:
            raise ValueError("Hyperparameter name is reserved: %s" % name)
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError("Multi-valued hyperparameters cannot be empty: %s" % name)
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name, value):
        """Sets an existing hyper-parameter (KeyError if there is none), casting `value` to
        its type when that loses nothing (an int for a float), else ValueError."""
        param_type, is_list = self._hparam_types[name]
        if isinstance(value, list):
            if not is_list:
                raise ValueError("Must not pass a list for single-valued parameter: %s" % name)
            setattr(self, name, [_cast_to_type_if_compatible(name, param_type, v)
                                 for v in value])
        else:
            if is_list:
                raise ValueError("Must pass a list for multi-valued parameter: %s." % name)
            setattr(self, name, _cast_to_type_if_compatible(name, param_type, value))

    def del_hparam(self, name):
        """Removes the hyper-parameter `name` (nothing happens if there is none)."""
        if hasattr(self, name):
            delattr(self, name)
            del self._hparam_types[name]

    def parse(self, values):
        """Overrides hyper-parameters from 'name=value,...' (see parse_values); returns self."""
        type_map = {name: param_type for name, (param_type, _) in self._hparam_types.items()}
        return self.override_from_dict(parse_values(values, type_map))

    def override_from_dict(self, values_dict):
        """Overrides hyper-parameters from a {name: value} dict; returns self."""
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def set_from_map(self, values_map):
        """Deprecated in TF 1.15: use override_from_dict."""
        return self.override_from_dict(values_map)

    def set_model_structure(self, model_structure):
        self._model_structure = model_structure

    def get_model_structure(self):
        return self._model_structure

    def to_json(self, indent=None, separators=None, sort_keys=False):
        """The values as a JSON object (callables left out)."""
        def remove_callables(x):
            if isinstance(x, dict):
                return {k: remove_callables(v) for k, v in x.items() if not callable(v)}
            if isinstance(x, list):
                return [remove_callables(i) for i in x if not callable(i)]
            return x
        return json.dumps(remove_callables(self.values()), indent=indent,
                          separators=separators, sort_keys=sort_keys)

    def parse_json(self, values_json):
        """Overrides hyper-parameters from a JSON object; returns self."""
        return self.override_from_dict(json.loads(values_json))

    def values(self):
        """The hyper-parameters as a {name: value} dict."""
        return {n: getattr(self, n) for n in self._hparam_types}

    def get(self, key, default=None):
        """The value of `key`, or `default` when there is no such hyper-parameter; a default
        that could not be a value of `key` raises ValueError."""
        if key not in self._hparam_types:
            return default
        if default is not None:
            param_type, is_param_list = self._hparam_types[key]
            type_str = "list<%s>" % param_type if is_param_list else str(param_type)
            fail_msg = ("Hparam '%s' of type '%s' is incompatible with default=%s"
                        % (key, type_str, default))
            is_default_list = isinstance(default, list)
            if is_param_list != is_default_list:
                raise ValueError(fail_msg)
            try:
                for value in (default if is_default_list else [default]):
                    _cast_to_type_if_compatible(key, param_type, value)
            except ValueError as e:
                raise ValueError("%s. %s" % (fail_msg, e)) from None
        return getattr(self, key)

    def __contains__(self, key):
        return key in self._hparam_types

    def __str__(self):
        hpdict = self.values()
        return ",".join("{}={}".format(key, hpdict[key]) for key in hpdict)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, str(sorted(self.values().items())))
