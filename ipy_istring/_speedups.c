/*
 * ipy_istring._speedups: an optional C accelerator for building and formatting templates, for
 * the rewrite's fast path, and for the cell check's walks over a cell's tree.
 *
 * What.  Things the pure-Python code in ipy_istring/template.py, _fast_path.py and check/ already
 * does, done without a Python frame:
 *
 *   template_builder(layouts, InterpolationTemplate)
 *       A callable equal to template._python_template_builder(layouts): ``build(key,
 *       *values)`` is ``object.__new__(InterpolationTemplate)`` with ``_layout =
 *       layouts[key]`` and ``_values = values``; the other slots stay unset, exactly as the
 *       Python builder leaves them.
 *
 *   formatting_methods(InterpolationTemplate, _Layout)
 *       {"__str__": ..., "__format__": ...}: method descriptors for the class.  For a layout
 *       made by the rewrite (one with ``fields``) they format as the layout's compiled
 *       f-string (template._compiled_formatter) does, step for step: per field the value
 *       ``values[value_at]``, its conversion (!r/!s/!a), the spec (``values[spec_at]``
 *       formatted, or the constant spec), ``PyObject_Format``, and the pieces joined with the
 *       static strings, in the f-string's order of evaluation on this Python; ``format(t,
 *       spec)`` formats that text with the spec.  Anything else (a template built from
 *       parts, a layout that does not look as expected, an unset slot) calls
 *       ``layout.formatter(values)`` as the Python methods do: the Python formatter stays the
 *       one reference, and the fallback.
 *
 *   rewrite_simple(source, builder, layout_key, patterns, calls, max_calls, field_by_field)
 *       _fast_path._python_rewrite_simple: the loop over a cell's i-literals, each one's
 *       fields split and its call written, the compiled patterns still doing the reading.
 *
 *   put_aside, call_at, rebound, import_bindings, dotted, places, line_numbers
 *       The cell check's walks over the tree of each cell IPython prepares (see their section
 *       below): check/flow.py and check/cell.py keep the Python versions.
 *
 *   calls_in
 *       The check's search of a cell's text for the calls that may be sinks (see its
 *       section): sinks.CallFinder._python_calls_in is the reference.
 *
 *   may_reach
 *       The check's judging of a cell's sink calls from each call alone, for the usual calls
 *       (see its section): flow.Analysis._python_may_reach and _passes_no_format are the
 *       reference, and judge the others.
 *
 * Why.  Issue 12's goals (building <= 1.5x the native t-string on 3.14, format(t) <= 2x the
 * f-string, the rewrite <= 5 us per literal) sit below what any Python-level code can cost: a
 * Python call alone is most of the budget.  Likewise issue 11's: the cell check within 2% of
 * IPython preparing the cell.
 *
 * How.  The instance slots are written and read at the offsets their member descriptors
 * give, read once when the builder or the methods are made (and checked: an object slot,
 * writable, inside the instance).  Every object read from a slot is held by a strong
 * reference while user code (__format__, __repr__...) runs, since that code may reassign
 * the slot.  No private (underscored) C API is used (the member descriptor's struct is CPython's
 * non-limited API), and it compiles for CPython 3.10 to 3.14.
 *
 * template.py decides at import whether to use this module (not when IPY_ISTRING_PURE_PYTHON=1
 * or when it was not built): see template._accelerate.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h> /* offsetof */
#include <string.h> /* memcpy */

#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h>
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

/* The object pointer stored in the instance slot at byte offset `offset` of `obj`. */
#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* Where the `__slots__` entry `name` of `type` lives in its instances, checked to be a writable
 * object slot of that type's layout.  -1 with an exception set otherwise. */
static Py_ssize_t
slot_offset(PyTypeObject *type, const char *name)
{
    PyObject *descr = PyObject_GetAttrString((PyObject *)type, name);
    if (descr == NULL) {
        return -1;
    }
    Py_ssize_t offset = -1;
    if (Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyMemberDescrObject *member = (PyMemberDescrObject *)descr;
        PyMemberDef *def = member->d_member;
        if (PyType_IsSubtype(type, member->d_common.d_type) && def->type == Py_T_OBJECT_EX &&
            !(def->flags & Py_READONLY) && def->offset >= (Py_ssize_t)sizeof(PyObject) &&
            def->offset + (Py_ssize_t)sizeof(PyObject *) <= type->tp_basicsize) {
            offset = def->offset;
        }
    }
    Py_DECREF(descr);
    if (offset < 0) {
        PyErr_Format(PyExc_TypeError, "%.200s.%s is not an object slot", type->tp_name, name);
    }
    return offset;
}

static PyObject *empty_tuple; /* the arguments of object.__new__(cls) */

/* ------------------------------------------------------------------------------------------
 * The builder: template._template_builder(layouts) in C.
 */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *layouts;   /* the rewrite's list of layouts, indexed by key */
    PyTypeObject *cls;   /* InterpolationTemplate */
    Py_ssize_t layout_offset, values_offset;
} TemplateBuilder;

/* layouts[key] as a new reference: the list read directly for the usual key, else the
 * generic item lookup, which gives Python's own result and errors for any other key. */
static PyObject *
layout_at(PyObject *layouts, PyObject *key)
{
#ifndef Py_GIL_DISABLED /* without the GIL, a borrowed list item may be gone before its incref */
    if (PyList_CheckExact(layouts) && PyLong_CheckExact(key)) {
        Py_ssize_t index = PyLong_AsSsize_t(key);
        if (index >= 0 && index < PyList_GET_SIZE(layouts)) {
            return Py_NewRef(PyList_GET_ITEM(layouts, index));
        }
        PyErr_Clear(); /* an int too large for Py_ssize_t: the generic lookup says so */
    }
#endif
    return PyObject_GetItem(layouts, key);
}

static PyObject *
builder_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    TemplateBuilder *self = (TemplateBuilder *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_SetString(PyExc_TypeError, "build_template() takes no keyword arguments");
        return NULL;
    }
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "build_template() missing required argument: 'key'");
        return NULL;
    }
    /* object.__new__(cls), as the Python builder calls it */
    PyObject *template = PyBaseObject_Type.tp_new(self->cls, empty_tuple, NULL);
    if (template == NULL) {
        return NULL;
    }
    PyObject *layout = layout_at(self->layouts, args[0]);
    if (layout == NULL) {
        Py_DECREF(template);
        return NULL;
    }
    PyObject *values = PyTuple_New(nargs - 1);
    if (values == NULL) {
        Py_DECREF(layout);
        Py_DECREF(template);
        return NULL;
    }
    for (Py_ssize_t i = 1; i < nargs; i++) {
        PyTuple_SET_ITEM(values, i - 1, Py_NewRef(args[i]));
    }
    /* a fresh object: both slots are still NULL, nothing to release */
    SLOT(template, self->layout_offset) = layout;
    SLOT(template, self->values_offset) = values;
    return template;
}

static int
builder_traverse(TemplateBuilder *self, visitproc visit, void *arg)
{
    Py_VISIT(self->layouts);
    Py_VISIT(self->cls);
    return 0;
}

static int
builder_clear(TemplateBuilder *self)
{
    Py_CLEAR(self->layouts);
    Py_CLEAR(self->cls);
    return 0;
}

static void
builder_dealloc(TemplateBuilder *self)
{
    PyObject_GC_UnTrack(self);
    builder_clear(self);
    PyObject_GC_Del(self);
}

static PyTypeObject TemplateBuilder_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ipy_istring._speedups.TemplateBuilder",
    .tp_doc = "build_template(key, *values): the template of the literal laid out as "
              "layouts[key] with these values (template._python_template_builder in C).",
    .tp_basicsize = sizeof(TemplateBuilder),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(TemplateBuilder, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_traverse = (traverseproc)builder_traverse,
    .tp_clear = (inquiry)builder_clear,
    .tp_dealloc = (destructor)builder_dealloc,
};

static PyObject *
template_builder(PyObject *module, PyObject *args)
{
    PyObject *layouts;
    PyTypeObject *cls;
    if (!PyArg_ParseTuple(args, "OO!:template_builder", &layouts, &PyType_Type, &cls)) {
        return NULL;
    }
    Py_ssize_t layout_offset = slot_offset(cls, "_layout");
    if (layout_offset < 0) {
        return NULL;
    }
    Py_ssize_t values_offset = slot_offset(cls, "_values");
    if (values_offset < 0) {
        return NULL;
    }
    TemplateBuilder *self = PyObject_GC_New(TemplateBuilder, &TemplateBuilder_Type);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = builder_vectorcall;
    self->layouts = Py_NewRef(layouts);
    self->cls = (PyTypeObject *)Py_NewRef(cls);
    self->layout_offset = layout_offset;
    self->values_offset = values_offset;
    PyObject_GC_Track(self);
    return (PyObject *)self;
}

/* ------------------------------------------------------------------------------------------
 * Formatting: InterpolationTemplate.__str__ and __format__ in C.
 *
 * The classes and slot offsets are set once by formatting_methods (the methods themselves
 * receive only `self`); the types are held for the life of the process.
 */

static PyTypeObject *template_type, *layout_type;
static Py_ssize_t template_layout_at, template_values_at, layout_strings_at, layout_fields_at;

/* The Python methods' path: ``self._layout.formatter(self._values)``, attribute by attribute,
 * so every error is the one the Python code raises. */
static PyObject *
python_format(PyObject *self)
{
    PyObject *result = NULL, *formatter = NULL, *values = NULL;
    PyObject *layout = PyObject_GetAttrString(self, "_layout");
    if (layout == NULL) {
        return NULL;
    }
    formatter = PyObject_GetAttrString(layout, "formatter");
    if (formatter == NULL) {
        goto done;
    }
    values = PyObject_GetAttrString(self, "_values");
    if (values == NULL) {
        goto done;
    }
    result = PyObject_CallOneArg(formatter, values);
done:
    Py_XDECREF(values);
    Py_XDECREF(formatter);
    Py_DECREF(layout);
    return result;
}

/* One field of a plain layout, as read_fields found it.  The references are borrowed from
 * the values tuple and the layout's fields, which render holds while formatting. */
typedef struct {
    PyObject *value;      /* values[value_at] */
    PyObject *spec_value; /* values[spec_at], or NULL when the constant spec applies */
    PyObject *spec;       /* the constant spec, or NULL when it is empty (no spec at all) */
    Py_UCS4 conversion;   /* 'r', 's', 'a', or 0 for none */
} Field;

/* `number` as an index into `limit` values, or -1 when it is the int -1 (no run-time spec);
 * -2 for anything else.  Never raises (an exact int is read with its overflow flag). */
static Py_ssize_t
index_in(PyObject *number, Py_ssize_t limit)
{
    int overflow;
    if (!PyLong_CheckExact(number)) {
        return -2;
    }
    long index = PyLong_AsLongAndOverflow(number, &overflow);
    return overflow || index < -1 || index >= limit ? -2 : (Py_ssize_t)index;
}

/* Read the layout's fields into `out` (nfields of them), checking the shape
 * _compiled_formatter reads: each string a str, each field a tuple (expression, conversion,
 * constant spec, value_at, spec_at) with its indices inside the values.  Only reads, and no
 * user code runs: when the answer is no (0), the Python fallback does nothing twice. */
static int
read_fields(PyObject *strings, PyObject *fields, PyObject *values, Field *out)
{
    Py_ssize_t nfields = PyTuple_GET_SIZE(fields), nvalues = PyTuple_GET_SIZE(values);
    for (Py_ssize_t i = 0; i <= nfields; i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(strings, i))) {
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < nfields; i++) {
        PyObject *field = PyTuple_GET_ITEM(fields, i);
        if (!PyTuple_CheckExact(field) || PyTuple_GET_SIZE(field) != 5) {
            return 0;
        }
        PyObject *conversion = PyTuple_GET_ITEM(field, 1);
        out[i].conversion = 0;
        if (conversion != Py_None) {
            if (!PyUnicode_CheckExact(conversion) || PyUnicode_GET_LENGTH(conversion) != 1) {
                return 0;
            }
            out[i].conversion = PyUnicode_READ_CHAR(conversion, 0);
            if (out[i].conversion != 'r' && out[i].conversion != 's' &&
                out[i].conversion != 'a') {
                return 0;
            }
        }
        PyObject *spec = PyTuple_GET_ITEM(field, 2);
        Py_ssize_t value_at = index_in(PyTuple_GET_ITEM(field, 3), nvalues);
        Py_ssize_t spec_at = index_in(PyTuple_GET_ITEM(field, 4), nvalues);
        if (!PyUnicode_CheckExact(spec) || value_at < 0 || spec_at < -1) {
            return 0;
        }
        out[i].value = PyTuple_GET_ITEM(values, value_at);
        out[i].spec_value = spec_at >= 0 ? PyTuple_GET_ITEM(values, spec_at) : NULL;
        /* the compiled f-string writes a spec only when it is not empty */
        out[i].spec = PyUnicode_GET_LENGTH(spec) > 0 ? spec : NULL;
    }
    return 1;
}

/* The value with the field's conversion applied (new reference). */
static PyObject *
converted(PyObject *value, Py_UCS4 conversion)
{
    switch (conversion) {
    case 'r':
        return PyObject_Repr(value);
    case 's':
        return PyObject_Str(value);
    case 'a':
        return PyObject_ASCII(value);
    default:
        return Py_NewRef(value);
    }
}

/* One field formatted as the f-string's `{v[value_at]!conversion:spec}` does (new reference).
 * The f-string's order of evaluation is kept: before 3.13 its spec is evaluated before the
 * conversion runs (FORMAT_VALUE does both), from 3.13 after (CONVERT_VALUE comes first). */
static PyObject *
format_field(const Field *field)
{
    PyObject *shown = NULL, *spec = NULL, *result = NULL;
#if PY_VERSION_HEX >= 0x030D0000
    shown = converted(field->value, field->conversion);
    if (shown == NULL) {
        return NULL;
    }
#endif
    if (field->spec_value != NULL) {
        /* `:{v[spec_at]}`: the run-time spec, itself formatted */
        spec = PyObject_Format(field->spec_value, NULL);
        if (spec == NULL) {
            goto done;
        }
    }
    else {
        spec = Py_XNewRef(field->spec);
    }
#if PY_VERSION_HEX < 0x030D0000
    shown = converted(field->value, field->conversion);
    if (shown == NULL) {
        goto done;
    }
#endif
    result = PyObject_Format(shown, spec);
done:
    Py_XDECREF(shown);
    Py_XDECREF(spec);
    return result;
}

/* The pieces joined into one new exact str (as the f-string's BUILD_STRING does). */
static PyObject *
join(PyObject **pieces, Py_ssize_t npieces)
{
    Py_ssize_t length = 0;
    Py_UCS4 maxchar = 0;
    for (Py_ssize_t i = 0; i < npieces; i++) {
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(pieces[i]) < 0) {
            return NULL;
        }
#endif
        Py_ssize_t piece_length = PyUnicode_GET_LENGTH(pieces[i]);
        if (piece_length > PY_SSIZE_T_MAX - length) {
            PyErr_SetString(PyExc_OverflowError, "join() result is too long for a Python string");
            return NULL;
        }
        length += piece_length;
        Py_UCS4 piece_max = PyUnicode_MAX_CHAR_VALUE(pieces[i]);
        if (piece_max > maxchar) {
            maxchar = piece_max;
        }
    }
    PyObject *text = PyUnicode_New(length, maxchar);
    if (text == NULL) {
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    char *data = PyUnicode_DATA(text);
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < npieces; i++) {
        Py_ssize_t piece_length = PyUnicode_GET_LENGTH(pieces[i]);
        if ((int)PyUnicode_KIND(pieces[i]) == kind) {
            memcpy(data + at * kind, PyUnicode_DATA(pieces[i]), piece_length * kind);
        }
        else if (PyUnicode_CopyCharacters(text, at, pieces[i], 0, piece_length) < 0) {
            Py_DECREF(text);
            return NULL;
        }
        at += piece_length;
    }
    return text;
}

/* The text of the strings interleaved with the fields formatted.  `pieces` has room for
 * 2 * nfields + 1: the strings go at even places (borrowed), the formatted fields at odd
 * places (owned, released here). */
static PyObject *
format_fields(PyObject *strings, const Field *fields, Py_ssize_t nfields, PyObject **pieces)
{
    PyObject *result = NULL;
    Py_ssize_t nformatted = 0, texts = 0;
    for (; nformatted < nfields; nformatted++) {
        PyObject *piece = format_field(&fields[nformatted]);
        if (piece == NULL) {
            goto done;
        }
        pieces[2 * nformatted + 1] = piece;
    }
    for (Py_ssize_t i = 0; i <= nfields; i++) {
        pieces[2 * i] = PyTuple_GET_ITEM(strings, i);
        texts += PyUnicode_GET_LENGTH(pieces[2 * i]) > 0;
    }
    if (nfields == 1 && texts == 0) {
        /* `f'{v[0]}'` alone: the f-string gives format()'s result itself, not a join (which
         * differs only when a __format__ returns a str subclass) */
        result = Py_NewRef(pieces[1]);
    }
    else {
        result = join(pieces, 2 * nfields + 1);
    }
done:
    for (Py_ssize_t i = 0; i < nformatted; i++) {
        Py_DECREF(pieces[2 * i + 1]);
    }
    return result;
}

#define STACK_FIELDS 8

/* The template's text: what ``self._layout.formatter(self._values)`` returns. */
static PyObject *
render(PyObject *self)
{
    PyObject *layout = SLOT(self, template_layout_at);
    PyObject *values = SLOT(self, template_values_at);
    if (layout == NULL || values == NULL || !Py_IS_TYPE(layout, layout_type) ||
        !PyTuple_CheckExact(values)) {
        return python_format(self);
    }
    PyObject *strings = SLOT(layout, layout_strings_at);
    PyObject *fields = SLOT(layout, layout_fields_at);
    if (strings == NULL || fields == NULL || !PyTuple_CheckExact(strings) ||
        !PyTuple_CheckExact(fields) || PyTuple_GET_SIZE(fields) == 0 ||
        PyTuple_GET_SIZE(strings) != PyTuple_GET_SIZE(fields) + 1) {
        return python_format(self); /* a template built from parts, or no fields */
    }
    Py_ssize_t nfields = PyTuple_GET_SIZE(fields);
    Field stack_fields[STACK_FIELDS];
    PyObject *stack_pieces[2 * STACK_FIELDS + 1];
    Field *placed = stack_fields;
    PyObject **pieces = stack_pieces;
    if (nfields > STACK_FIELDS) {
        placed = PyMem_New(Field, nfields);
        pieces = PyMem_New(PyObject *, 2 * nfields + 1);
        if (placed == NULL || pieces == NULL) {
            PyMem_Free(placed);
            PyMem_Free(pieces);
            return PyErr_NoMemory();
        }
    }
    PyObject *result = NULL;
    if (!read_fields(strings, fields, values, placed)) {
        result = python_format(self);
    }
    else if (Py_EnterRecursiveCall(" while formatting an i-string template") == 0) {
        /* User code runs from here on and may reassign the slots read above: hold what
         * `placed` borrows from. */
        Py_INCREF(values);
        Py_INCREF(strings);
        Py_INCREF(fields);
        result = format_fields(strings, placed, nfields, pieces);
        Py_DECREF(fields);
        Py_DECREF(strings);
        Py_DECREF(values);
        Py_LeaveRecursiveCall();
    }
    if (placed != stack_fields) {
        PyMem_Free(placed);
        PyMem_Free(pieces);
    }
    return result;
}

static PyObject *
template_str(PyObject *self, PyObject *unused)
{
    return render(self);
}

/* format(t, spec): the rendered text, formatted with the spec when there is one.  As the
 * Python method, the spec's truth is asked before rendering, and a spec that is not a str
 * fails as format(text, spec) would. */
static PyObject *
template_format(PyObject *self, PyObject *spec)
{
    int has_spec;
    if (PyUnicode_CheckExact(spec)) {
        has_spec = PyUnicode_GET_LENGTH(spec) > 0;
    }
    else if ((has_spec = PyObject_IsTrue(spec)) < 0) {
        return NULL;
    }
    PyObject *text = render(self);
    if (text == NULL || !has_spec) {
        return text;
    }
    PyObject *result = NULL;
    if (PyUnicode_Check(spec)) {
        result = PyObject_Format(text, spec);
    }
    else {
        PyErr_Format(PyExc_TypeError, "format() argument 2 must be str, not %.200s",
                     Py_TYPE(spec)->tp_name);
    }
    Py_DECREF(text);
    return result;
}

static PyMethodDef template_str_def = {
    "__str__", (PyCFunction)template_str, METH_NOARGS,
    "The text the f-string with the same literal gives (ipy_istring._speedups)."};

static PyMethodDef template_format_def = {
    "__format__", (PyCFunction)template_format, METH_O,
    "The text formatted with the spec, as format(str(t), spec) (ipy_istring._speedups)."};

static PyObject *
formatting_methods(PyObject *module, PyObject *args)
{
    PyTypeObject *cls, *layout_cls;
    if (!PyArg_ParseTuple(args, "O!O!:formatting_methods", &PyType_Type, &cls, &PyType_Type,
                          &layout_cls)) {
        return NULL;
    }
    if (template_type != NULL && (template_type != cls || layout_type != layout_cls)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "formatting_methods() serves one template class per process");
        return NULL;
    }
    Py_ssize_t layout_at = slot_offset(cls, "_layout"), values_at = slot_offset(cls, "_values");
    Py_ssize_t strings_at = slot_offset(layout_cls, "strings");
    Py_ssize_t fields_at = slot_offset(layout_cls, "fields");
    if (layout_at < 0 || values_at < 0 || strings_at < 0 || fields_at < 0) {
        return NULL;
    }
    if (template_type == NULL) {
        template_type = (PyTypeObject *)Py_NewRef(cls);
        layout_type = (PyTypeObject *)Py_NewRef(layout_cls);
        template_layout_at = layout_at;
        template_values_at = values_at;
        layout_strings_at = strings_at;
        layout_fields_at = fields_at;
    }
    PyObject *str_method = PyDescr_NewMethod(cls, &template_str_def);
    PyObject *format_method = PyDescr_NewMethod(cls, &template_format_def);
    PyObject *methods = NULL;
    if (str_method != NULL && format_method != NULL) {
        methods = Py_BuildValue("{sOsO}", "__str__", str_method, "__format__", format_method);
    }
    Py_XDECREF(str_method);
    Py_XDECREF(format_method);
    return methods;
}

/* ------------------------------------------------------------------------------------------
 * The rewrite's fast path: _fast_path._python_rewrite_simple and _python_call in C.
 *
 * The same steps as the Python functions, which stay the reference (tests/test_rewrite.py runs
 * both on every case): the compiled patterns do all the reading, as there; only the loop
 * around them, the slicing and the call's text are done here, without a Python frame per
 * literal.  A body the common-shape split does not settle goes to the Python
 * _call_field_by_field, and the layout key comes from the Python layout_key.
 */

static PyObject *str_span, *str_end, *str_next_istring, *str_split_fields, *str_match,
    *str_split, *int_one, *int_minus_one, *call_separator, *empty_str;

/* split_fields.split(body) is the text before the first field, then per field its
 * expression, debug ``=``, conversion and spec, and the text after it. */
#define FIELD_PIECES 5

/* _fast_path._python_call: the call that replaces an i-literal with this body, its layout
 * stored (Py_None: a field not of the common shape). */
static PyObject *
simple_call(PyObject *body, PyObject *builder, PyObject *layout_key, PyObject *split,
            PyObject *field_by_field, PyObject *patterns)
{
    PyObject *pieces = PyObject_CallOneArg(split, body);
    if (pieces == NULL) {
        return NULL;
    }
    if (!PyList_CheckExact(pieces) || (PyList_GET_SIZE(pieces) - 1) % FIELD_PIECES != 0) {
        Py_DECREF(pieces);
        PyErr_SetString(PyExc_TypeError, "split_fields.split() did not give text and fields");
        return NULL;
    }
    Py_ssize_t fields = (PyList_GET_SIZE(pieces) - 1) / FIELD_PIECES;
    /* Braces outside the fields ({{, }} or another shape), newlines, a debug field {x=}. */
    Py_ssize_t opening = 0, closing = 0, length = PyUnicode_GET_LENGTH(body);
    int kind = PyUnicode_KIND(body), newline = 0, equals = 0;
    const void *data = PyUnicode_DATA(body);
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        opening += ch == '{';
        closing += ch == '}';
        newline |= ch == '\n';
        equals |= ch == '=';
    }
    int by_field = opening != fields || closing != fields || newline;
    for (Py_ssize_t k = 0; !by_field && equals && k < fields; k++) {
        by_field = PyObject_IsTrue(PyList_GET_ITEM(pieces, k * FIELD_PIECES + 2));
        if (by_field < 0) {
            Py_DECREF(pieces);
            return NULL;
        }
    }
    if (by_field) {
        Py_DECREF(pieces);
        PyObject *args[4] = {body, builder, layout_key, patterns};
        return PyObject_Vectorcall(field_by_field, args, 4, NULL);
    }
    PyObject *strings = PyTuple_New(fields + 1), *placed = PyTuple_New(fields);
    PyObject *expressions = PyList_New(fields), *key = NULL, *call = NULL;
    if (strings == NULL || placed == NULL || expressions == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k <= fields; k++) {
        PyObject **piece = PySequence_Fast_ITEMS(pieces) + k * FIELD_PIECES;
        PyTuple_SET_ITEM(strings, k, Py_NewRef(piece[0]));
        if (k == fields) {
            break;
        }
        PyObject *index = PyLong_FromSsize_t(k);
        PyObject *field = index ? PyTuple_Pack(5, piece[1], piece[3], piece[4], index,
                                               int_minus_one) : NULL;
        Py_XDECREF(index);
        if (field == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(placed, k, field);
        PyList_SET_ITEM(expressions, k, Py_NewRef(piece[1]));
    }
    PyObject *args[2] = {strings, placed};
    key = PyObject_Vectorcall(layout_key, args, 2, NULL);
    if (key == NULL) {
        goto done;
    }
    if (fields == 0) {
        call = PyUnicode_FromFormat("%U(%S)", builder, key);
    }
    else {
        PyObject *joined = PyUnicode_Join(call_separator, expressions);
        if (joined != NULL) {
            call = PyUnicode_FromFormat("%U(%S, (%U))", builder, key, joined);
            Py_DECREF(joined);
        }
    }
done:
    Py_DECREF(pieces);
    Py_XDECREF(strings);
    Py_XDECREF(placed);
    Py_XDECREF(expressions);
    Py_XDECREF(key);
    return call;
}

/* Where the match of next_istring(source, pos) puts its literal, (-1, -1) for none, and
 * where it ends; -1 with an exception set on failure. */
static int
literal_span(PyObject *found, Py_ssize_t *quote, Py_ssize_t *after, Py_ssize_t *end)
{
    PyObject *span = PyObject_CallMethodOneArg(found, str_span, int_one);
    if (span == NULL) {
        return -1;
    }
    int ok = PyArg_ParseTuple(span, "nn", quote, after);
    Py_DECREF(span);
    if (!ok) {
        return -1;
    }
    PyObject *stop = PyObject_CallMethodNoArgs(found, str_end);
    if (stop == NULL) {
        return -1;
    }
    *end = PyLong_AsSsize_t(stop);
    Py_DECREF(stop);
    return *end == -1 && PyErr_Occurred() ? -1 : 0;
}

/* Append source[start:stop] and then `call` to `out`. */
static int
append_code_and_call(PyObject *out, PyObject *source, Py_ssize_t start, Py_ssize_t stop,
                     PyObject *call)
{
    PyObject *code = PyUnicode_Substring(source, start, stop);
    int failed = code == NULL || PyList_Append(out, code) < 0 ||
                 (call != NULL && PyList_Append(out, call) < 0);
    Py_XDECREF(code);
    return failed ? -1 : 0;
}

static PyObject *
rewrite_simple(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7 || !PyUnicode_Check(args[0]) || !PyUnicode_Check(args[1]) ||
        !PyDict_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "rewrite_simple(source: str, builder: str, layout_key, "
                                         "patterns, calls: dict, max_calls, field_by_field)");
        return NULL;
    }
    PyObject *source = args[0], *builder = args[1], *layout_key = args[2], *patterns = args[3];
    PyObject *calls = args[4], *field_by_field = args[6];
    Py_ssize_t max_calls = PyLong_AsSsize_t(args[5]);
    if (max_calls == -1 && PyErr_Occurred()) {
        return NULL;
    }
    PyObject *next_istring = NULL, *split = NULL, *out = NULL, *result = NULL;
    PyObject *pattern = PyObject_GetAttr(patterns, str_next_istring);
    if (pattern != NULL) {
        next_istring = PyObject_GetAttr(pattern, str_match);
        Py_DECREF(pattern);
    }
    pattern = next_istring ? PyObject_GetAttr(patterns, str_split_fields) : NULL;
    if (pattern != NULL) {
        split = PyObject_GetAttr(pattern, str_split);
        Py_DECREF(pattern);
    }
    out = split ? PyList_New(0) : NULL;
    if (out == NULL) {
        goto done;
    }
    int kind = PyUnicode_KIND(source);
    const void *data = PyUnicode_DATA(source);
    Py_ssize_t pos = 0, length = PyUnicode_GET_LENGTH(source);
    for (;;) {
        PyObject *at = PyLong_FromSsize_t(pos);
        if (at == NULL) {
            goto done;
        }
        PyObject *match_args[2] = {source, at};
        PyObject *found = PyObject_Vectorcall(next_istring, match_args, 2, NULL);
        Py_DECREF(at);
        if (found == NULL) {
            goto done;
        }
        Py_ssize_t quote, after, end;
        int failed = literal_span(found, &quote, &after, &end);
        Py_DECREF(found);
        if (failed) {
            goto done;
        }
        if (quote < 0) { /* no i-literal up to where the code stopped being read */
            if (end != length) {
                result = Py_NewRef(Py_None);
                goto done;
            }
            break;
        }
        Py_ssize_t prefix = quote - 1;
        if (quote >= 2) {
            Py_UCS4 before = PyUnicode_READ(kind, data, quote - 2);
            prefix -= before == 'i' || before == 'I' || before == 'r' || before == 'R';
        }
        PyObject *text = PyUnicode_Substring(source, quote, after);
        if (text == NULL) {
            goto done;
        }
        PyObject *call = PyDict_GetItemWithError(calls, text);
        Py_XINCREF(call);
        if (call == NULL && !PyErr_Occurred()) {
            /* (Three quotes open a triple-quoted literal, as in the tokenizer.) */
            Py_UCS4 first = PyUnicode_READ(kind, data, quote);
            Py_ssize_t quotes = after - quote >= 3 &&
                                        PyUnicode_READ(kind, data, quote + 1) == first &&
                                        PyUnicode_READ(kind, data, quote + 2) == first
                                    ? 3
                                    : 1;
            PyObject *body = PyUnicode_Substring(text, quotes, after - quote - quotes);
            if (body != NULL) {
                call = simple_call(body, builder, layout_key, split, field_by_field, patterns);
                Py_DECREF(body);
            }
            if (call != NULL && call != Py_None) {
                if (PyDict_GET_SIZE(calls) >= max_calls) {
                    PyDict_Clear(calls); /* bounded: cleared when full */
                }
                if (PyDict_SetItem(calls, text, call) < 0) {
                    Py_CLEAR(call);
                }
            }
        }
        Py_DECREF(text);
        if (call == NULL || call == Py_None) {
            result = call;
            goto done;
        }
        failed = append_code_and_call(out, source, pos, prefix, call);
        Py_DECREF(call);
        if (failed) {
            goto done;
        }
        pos = after;
    }
    if (PyList_GET_SIZE(out) == 0) {
        result = Py_NewRef(source);
    }
    else if (append_code_and_call(out, source, pos, length, NULL) == 0) {
        result = PyUnicode_Join(empty_str, out);
    }
done:
    Py_XDECREF(next_istring);
    Py_XDECREF(split);
    Py_XDECREF(out);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/*
 * The cell check's walks over a cell's tree (ipy_istring/check/flow.py and cell.py), which run
 * for every cell IPython prepares:
 *
 *   put_aside(statements, imports_read, put_aside_names, module_names, helpers, unparsed,
 *             functions, returns, missing, forget_helper, other)
 *       The loop of flow.Analysis._python_put_aside: the usual statements (a name assigned,
 *       a method called on a name, a function defined) noted in the tables given, each other
 *       statement handed to ``other(statement)``, in order.
 *   call_at(statement, line, column)       flow._python_call_at
 *   dotted(node)                           flow._python_dotted
 *   places(source, offsets)                flow._python_places
 *   line_numbers(source, offsets, every)   flow._python_line_numbers
 *   rebound(body)                          flow._python_rebound
 *   import_bindings(body, count)           cell._python_import_bindings
 *
 * The Python versions stay the reference (tests/test_check.py runs both on its corpus).
 */

static PyTypeObject *ast_AST, *ast_FunctionDef, *ast_AsyncFunctionDef, *ast_Call,
    *ast_Attribute, *ast_Name, *ast_Constant, *ast_Load, *ast_alias, *ast_Assign, *ast_Expr,
    *ast_Import, *ast_ImportFrom;
static PyObject *str_lineno, *str_col_offset, *str_end_lineno, *str_end_col_offset, *str_func,
    *str_value, *str_ctx, *str_id, *str_name, *str_asname, *str_names, *str_module,
    *str_targets, *str_fields, *str_star, *str_attributes, *str_attr, *str_dot;
/* Per node type, the tuple of its fields that may hold nodes (all but ``ctx``); and whether
 * its nodes have places. */
static PyObject *node_fields, *placed_types;

/* The ast module's types this part reads, fetched on its first use. */
static int
load_ast(void)
{
    if (node_fields != NULL) {
        return 0;
    }
    PyObject *ast = PyImport_ImportModule("ast");
    if (ast == NULL) {
        return -1;
    }
    struct {
        PyTypeObject **type;
        const char *name;
    } types[] = {
        {&ast_AST, "AST"}, {&ast_FunctionDef, "FunctionDef"},
        {&ast_AsyncFunctionDef, "AsyncFunctionDef"}, {&ast_Call, "Call"},
        {&ast_Attribute, "Attribute"}, {&ast_Name, "Name"}, {&ast_Constant, "Constant"},
        {&ast_Load, "Load"}, {&ast_alias, "alias"}, {&ast_Assign, "Assign"},
        {&ast_Expr, "Expr"}, {&ast_Import, "Import"}, {&ast_ImportFrom, "ImportFrom"},
    };
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        PyObject *type = PyObject_GetAttrString(ast, types[i].name);
        if (type == NULL || !PyType_Check(type)) {
            Py_XDECREF(type);
            Py_DECREF(ast);
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError, "ast.%s is not a type", types[i].name);
            }
            return -1;
        }
        *types[i].type = (PyTypeObject *)type; /* (held for good, as the module is) */
    }
    Py_DECREF(ast);
    struct {
        PyObject **str;
        const char *text;
    } strings[] = {
        {&str_lineno, "lineno"}, {&str_col_offset, "col_offset"},
        {&str_end_lineno, "end_lineno"}, {&str_end_col_offset, "end_col_offset"},
        {&str_func, "func"}, {&str_value, "value"}, {&str_ctx, "ctx"}, {&str_id, "id"},
        {&str_name, "name"}, {&str_asname, "asname"}, {&str_names, "names"},
        {&str_module, "module"}, {&str_targets, "targets"}, {&str_fields, "_fields"},
        {&str_star, "*"}, {&str_attributes, "_attributes"}, {&str_attr, "attr"},
        {&str_dot, "."},
    };
    for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
        if ((*strings[i].str = PyUnicode_InternFromString(strings[i].text)) == NULL) {
            return -1;
        }
    }
    placed_types = PyDict_New();
    node_fields = placed_types == NULL ? NULL : PyDict_New(); /* (set last: the flag of done) */
    return node_fields == NULL ? -1 : 0;
}

/* The fields of nodes of ``type`` that may hold nodes (borrowed); NULL with an exception. */
static PyObject *
fields_of(PyTypeObject *type)
{
    PyObject *fields = PyDict_GetItemWithError(node_fields, (PyObject *)type);
    if (fields != NULL || PyErr_Occurred()) {
        return fields;
    }
    PyObject *all = PyObject_GetAttr((PyObject *)type, str_fields);
    PyObject *kept = all == NULL ? NULL : PyList_New(0);
    if (kept != NULL && type != ast_Constant && type != ast_Name) {
        PyObject *iterator = PyObject_GetIter(all), *field;
        while (iterator != NULL && (field = PyIter_Next(iterator)) != NULL) {
            int is_ctx = PyUnicode_Check(field) ? PyUnicode_Compare(field, str_ctx) == 0 : 0;
            if (!is_ctx && PyList_Append(kept, field) < 0) {
                Py_CLEAR(kept);
            }
            Py_DECREF(field);
            if (kept == NULL) {
                break;
            }
        }
        Py_XDECREF(iterator);
        if (iterator == NULL || PyErr_Occurred()) {
            Py_CLEAR(kept);
        }
    }
    Py_XDECREF(all);
    if (kept == NULL) {
        return NULL;
    }
    fields = PyList_AsTuple(kept);
    Py_DECREF(kept);
    if (fields == NULL || PyDict_SetItem(node_fields, (PyObject *)type, fields) < 0) {
        Py_XDECREF(fields);
        return NULL;
    }
    Py_DECREF(fields); /* (the dictionary holds it) */
    return fields;
}

/* The ``__dict__`` of ``node``, a new reference (NULL with an exception): read where the
 * node's type keeps it (the ast module's types say where: ``__dictoffset__``), else as
 * ``object.__dict__`` gives it. */
#ifndef Py_TPFLAGS_MANAGED_DICT /* (Python 3.10 and 3.11 have none) */
#define Py_TPFLAGS_MANAGED_DICT 0
#endif

static PyObject *
node_dict(PyObject *node)
{
    Py_ssize_t offset = Py_TYPE(node)->tp_dictoffset;
    if (offset > 0 && !(Py_TYPE(node)->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
        PyObject *dict = *(PyObject **)((char *)node + offset);
        if (dict != NULL && PyDict_CheckExact(dict)) {
            return Py_NewRef(dict);
        }
    }
    return PyObject_GenericGetDict(node, NULL);
}

/* ``node.name`` as a new reference, read from the node's ``__dict__``, where a parsed tree
 * keeps every field and place (a dictionary lookup, much cheaper than getattr's way through
 * the type), else by getattr.  With ``or_none``, ``getattr(node, name, None)``.  NULL with an
 * exception on failure. */
static PyObject *
node_attr(PyObject *node, PyObject *name, int or_none)
{
    PyObject *dict = node_dict(node), *value = NULL;
    if (dict != NULL) {
        value = Py_XNewRef(PyDict_GetItemWithError(dict, name));
        Py_DECREF(dict);
        if (value != NULL || PyErr_Occurred()) {
            return value;
        }
    }
    else {
        PyErr_Clear();
    }
    value = PyObject_GetAttr(node, name);
    if (value == NULL && or_none && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        value = Py_NewRef(Py_None);
    }
    return value;
}

/* Append the child nodes of ``node`` to ``out`` (flow._child_nodes); -1 on failure. */
static int
append_children(PyObject *node, PyObject *out)
{
    PyObject *fields = fields_of(Py_TYPE(node));
    if (fields == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields); i++) {
        PyObject *value = node_attr(node, PyTuple_GET_ITEM(fields, i), 1);
        if (value == NULL) {
            return -1;
        }
        int failed = 0;
        if (PyList_CheckExact(value)) {
            for (Py_ssize_t k = 0; !failed && k < PyList_GET_SIZE(value); k++) {
                PyObject *item = PyList_GET_ITEM(value, k);
                if (PyObject_TypeCheck(item, ast_AST)) {
                    failed = PyList_Append(out, item) < 0;
                }
            }
        }
        else if (PyObject_TypeCheck(value, ast_AST)) {
            failed = PyList_Append(out, value) < 0;
        }
        Py_DECREF(value);
        if (failed) {
            return -1;
        }
    }
    return 0;
}

/* Whether nodes of ``type`` have places (``end_lineno`` among its ``_attributes``): 1, 0, or
 * -1 with an exception. */
static int
has_places(PyTypeObject *type)
{
    PyObject *known = PyDict_GetItemWithError(placed_types, (PyObject *)type);
    if (known != NULL || PyErr_Occurred()) {
        return known == NULL ? -1 : known == Py_True;
    }
    PyObject *attributes = PyObject_GetAttr((PyObject *)type, str_attributes);
    int placed = attributes == NULL ? -1 : PySequence_Contains(attributes, str_end_lineno);
    Py_XDECREF(attributes);
    if (placed < 0 ||
        PyDict_SetItem(placed_types, (PyObject *)type, placed ? Py_True : Py_False) < 0) {
        return -1;
    }
    return placed;
}

/* ``*out = dict[name]``, an int: 0, or -1 with an exception set if it is not one. */
static int
int_item(PyObject *dict, PyObject *name, long *out)
{
    PyObject *value = PyDict_GetItemWithError(dict, name);
    if (value == NULL || !PyLong_Check(value)) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError, "a node's %S is not a line or column", name);
        }
        return -1;
    }
    *out = PyLong_AsLong(value);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* Whether ``node`` spans the place (line, column): 1, 0, or -1 with an exception.  With
 * ``placeless_spans``, a node without an end (a comprehension's ``for`` part) spans it. */
static int
spans_place(PyObject *node, long line, long column, int placeless_spans)
{
    PyObject *dict = node_dict(node);
    if (dict == NULL) {
        return -1;
    }
    long end_line, start_line, start_column, end_column;
    PyObject *end = PyDict_GetItemWithError(dict, str_end_lineno);
    int spans = -1;
    if (end == NULL && !PyErr_Occurred() && placeless_spans) {
        /* Not in the node's dictionary: None for a kind of node without places (their
         * `_attributes`), else what getattr finds, or None. */
        int placed = has_places(Py_TYPE(node));
        PyObject *found = placed < 0 ? NULL
                          : placed  ? node_attr(node, str_end_lineno, 1)
                                    : Py_NewRef(Py_None);
        spans = found == NULL ? -1 : found == Py_None ? 1 : -2;
        Py_XDECREF(found);
        if (spans == -2) { /* (a place set on the class: rare, and read the slow way) */
            spans = -1;
            PyErr_SetString(PyExc_TypeError, "a node's place is not in its __dict__");
        }
    }
    else if (end == Py_None && placeless_spans) {
        spans = 1;
    }
    else if (int_item(dict, str_end_lineno, &end_line) == 0 &&
             int_item(dict, str_lineno, &start_line) == 0 &&
             int_item(dict, str_col_offset, &start_column) == 0 &&
             int_item(dict, str_end_col_offset, &end_column) == 0) {
        int after_start = start_line < line || (start_line == line && start_column <= column);
        int before_end = line < end_line || (line == end_line && column < end_column);
        spans = after_start && before_end;
    }
    Py_DECREF(dict);
    return spans;
}

/* ``list.pop()`` of a list that is not empty: the item, as a new reference. */
static PyObject *
pop_last(PyObject *list)
{
    Py_ssize_t last = PyList_GET_SIZE(list) - 1;
    PyObject *item = PyList_GET_ITEM(list, last); /* (the list's reference, now ours) */
    Py_SET_SIZE(list, last);
    return item;
}

/* The call at (line, column) in ``statement`` and the functions around it, as a tuple, or
 * None (flow._python_call_at); NULL with an exception. */
static PyObject *
find_call(PyObject *statement, long line, long column)
{
    /* Two stacks, side by side: the nodes to visit and the functions around each. */
    PyObject *nodes = PyList_New(1), *around = PyList_New(1);
    PyObject *result = NULL, *functions = PyList_New(0);
    if (nodes == NULL || around == NULL || functions == NULL) {
        Py_XDECREF(functions);
        goto done;
    }
    PyList_SET_ITEM(nodes, 0, Py_NewRef(statement));
    PyList_SET_ITEM(around, 0, functions); /* (the list holds it from here) */
    while (PyList_GET_SIZE(nodes) > 0) {
        PyObject *node = pop_last(nodes);
        functions = pop_last(around);
        PyTypeObject *kind = Py_TYPE(node);
        int failed = 0;
        if (kind == ast_FunctionDef || kind == ast_AsyncFunctionDef) {
            PyObject *inside = PySequence_List(functions);
            Py_SETREF(functions, inside);
            failed = inside == NULL || PyList_Append(inside, node) < 0;
        }
        else if (kind == ast_Call) {
            PyObject *func = node_attr(node, str_func, 0);
            int spans = func == NULL ? -1 : spans_place(func, line, column, 0);
            /* `cur.execute(` is found at its dot, `os.system(` at `os`: the call is the one
             * whose function's dotted name spans the place, not a call inside it. */
            PyObject *inner = func;
            while (spans > 0 && PyObject_TypeCheck(inner, ast_Attribute)) {
                Py_SETREF(inner, node_attr(inner, str_value, 0));
                if (inner == NULL) {
                    spans = -1;
                }
            }
            if (spans > 0) {
                spans = PyObject_TypeCheck(inner, ast_Name) ? 0
                                                            : spans_place(inner, line, column, 0);
                if (spans == 0) {
                    result = PyTuple_Pack(2, node, functions);
                }
            }
            Py_XDECREF(inner);
            failed = spans < 0 || result != NULL;
        }
        /* The children that span the place go on the stacks (nodes without a place, such as
         * a comprehension's `for` part, may span it). */
        Py_ssize_t first = PyList_GET_SIZE(nodes), kept = first;
        failed = failed || append_children(node, nodes) < 0;
        for (Py_ssize_t i = first; i < PyList_GET_SIZE(nodes); i++) {
            PyObject *child = PyList_GET_ITEM(nodes, i);
            int spans = failed ? 0 : spans_place(child, line, column, 1);
            failed = failed || spans < 0 || (spans && PyList_Append(around, functions) < 0);
            if (spans > 0 && !failed) {
                PyList_SET_ITEM(nodes, kept++, child); /* (moved down) */
            }
            else {
                Py_DECREF(child);
            }
        }
        Py_SET_SIZE(nodes, kept);
        Py_DECREF(node);
        Py_DECREF(functions);
        if (failed) {
            goto done;
        }
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(nodes);
    Py_XDECREF(around);
    return result;
}

static PyObject *
call_at(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    long line, column;
    if (nargs != 3 || !PyLong_Check(args[1]) || !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "call_at(statement, line, column)");
        return NULL;
    }
    if (load_ast() < 0 || ((line = PyLong_AsLong(args[1])) == -1 && PyErr_Occurred()) ||
        ((column = PyLong_AsLong(args[2])) == -1 && PyErr_Occurred())) {
        return NULL;
    }
    return find_call(args[0], line, column);
}

static PyObject *
dotted(PyObject *module, PyObject *node)
{
    if (load_ast() < 0 || Py_EnterRecursiveCall(" in dotted()")) {
        return NULL;
    }
    PyObject *parts = PyList_New(0), *result = NULL;
    Py_INCREF(node);
    while (parts != NULL) {
        PyObject *part = NULL, *next = NULL;
        if (PyObject_TypeCheck(node, ast_Attribute)) {
            part = node_attr(node, str_attr, 0);
            next = part == NULL ? NULL : node_attr(node, str_value, 0);
        }
        else if (PyObject_TypeCheck(node, ast_Call)) { /* `get_ipython().system` */
            PyObject *func = node_attr(node, str_func, 0);
            PyObject *called = func == NULL ? NULL : dotted(module, func);
            part = called == NULL ? NULL : PyUnicode_FromFormat("%U()", called);
            Py_XDECREF(func);
            Py_XDECREF(called);
        }
        else if (PyObject_TypeCheck(node, ast_Name)) {
            part = node_attr(node, str_id, 0);
        }
        else {
            part = PyUnicode_FromString("?");
        }
        int failed = part == NULL || (PyErr_Occurred() != NULL) || PyList_Append(parts, part) < 0;
        Py_XDECREF(part);
        Py_SETREF(node, next);
        if (failed) {
            Py_CLEAR(parts);
        }
        else if (node == NULL) {
            break;
        }
    }
    Py_XDECREF(node);
    if (parts != NULL && PyList_Reverse(parts) == 0) {
        result = PyUnicode_Join(str_dot, parts);
    }
    Py_XDECREF(parts);
    Py_LeaveRecursiveCall();
    return result;
}

/* ``offsets[i]``, an int within ``source``: -1 with an exception set otherwise. */
static Py_ssize_t
offset_at(PyObject *offsets, Py_ssize_t i, Py_ssize_t length)
{
    PyObject *item = PyList_GET_ITEM(offsets, i);
    Py_ssize_t offset = PyLong_Check(item) ? PyLong_AsSsize_t(item) : -1;
    if (offset < 0 || offset > length) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "offsets: ints within the source");
        }
        return -1;
    }
    return offset;
}

/* The newlines among the characters [start, stop) of a string's ``data``. */
static Py_ssize_t
newlines(int kind, const void *data, Py_ssize_t start, Py_ssize_t stop)
{
    Py_ssize_t count = 0;
    if (kind == PyUnicode_1BYTE_KIND) { /* (the usual cell: memchr goes by words) */
        const char *at = (const char *)data + start, *end = (const char *)data + stop;
        while (at < end && (at = memchr(at, '\n', (size_t)(end - at))) != NULL) {
            count++;
            at++;
        }
        return count;
    }
    for (Py_ssize_t k = start; k < stop; k++) {
        count += PyUnicode_READ(kind, data, k) == '\n';
    }
    return count;
}

/* check.flow._python_places and _python_line_numbers in one, step for step: with
 * ``columns``, (line, column in UTF-8 bytes) per offset; else the line numbers, distinct or
 * ``every`` one.  (Each line counts the newlines from the offset before, as the Python does.) */
static PyObject *
line_places(PyObject *source, PyObject *offsets, int columns, int every)
{
    if (!PyUnicode_Check(source) || !PyList_Check(offsets)) {
        PyErr_SetString(PyExc_TypeError, "(source: str, offsets: list[int], ...)");
        return NULL;
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(source), position = 0, line = 1;
    int kind = PyUnicode_KIND(source);
    const void *data = PyUnicode_DATA(source);
    PyObject *found = PyList_New(0);
    for (Py_ssize_t i = 0; found != NULL && i < PyList_GET_SIZE(offsets); i++) {
        Py_ssize_t offset = offset_at(offsets, i, length);
        if (offset < 0) {
            Py_CLEAR(found);
            break;
        }
        line += newlines(kind, data, position, offset);
        position = offset;
        PyObject *item = NULL;
        if (columns) {
            Py_ssize_t start = offset, column = 0; /* (UTF-8 bytes, as the tree counts) */
            while (start > 0 && PyUnicode_READ(kind, data, start - 1) != '\n') {
                start--;
            }
            for (Py_ssize_t k = start; k < offset; k++) {
                Py_UCS4 ch = PyUnicode_READ(kind, data, k);
                column += ch < 0x80 ? 1 : ch < 0x800 ? 2 : ch < 0x10000 ? 3 : 4;
            }
            item = Py_BuildValue("(nn)", line, column);
        }
        else if (every || PyList_GET_SIZE(found) == 0 ||
                 PyLong_AsSsize_t(PyList_GET_ITEM(found, PyList_GET_SIZE(found) - 1)) != line) {
            item = PyLong_FromSsize_t(line);
        }
        else {
            continue;
        }
        if (item == NULL || PyList_Append(found, item) < 0) {
            Py_CLEAR(found);
        }
        Py_XDECREF(item);
    }
    return found;
}

static PyObject *
places(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "places(source, offsets)");
        return NULL;
    }
    return line_places(args[0], args[1], 1, 1);
}

static PyObject *
line_numbers(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    int every = nargs == 3 ? PyObject_IsTrue(args[2]) : 0;
    if ((nargs != 2 && nargs != 3) || every < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "line_numbers(source, offsets, every=False)");
        }
        return NULL;
    }
    return line_places(args[0], args[1], 0, every);
}

/* ``(name or "").partition(".")[0]`` of a str; a new reference. */
static PyObject *
head_of(PyObject *name)
{
    Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PyUnicode_GET_LENGTH(name), 1);
    if (dot == -2) {
        return NULL;
    }
    return dot < 0 ? Py_NewRef(name) : PyUnicode_Substring(name, 0, dot);
}

static PyObject *
rebound(PyObject *Py_UNUSED(module), PyObject *body)
{
    if (load_ast() < 0) {
        return NULL;
    }
    PyObject *found = PySet_New(NULL), *todo = PySequence_List(body);
    if (found == NULL || todo == NULL) {
        goto failed;
    }
    while (PyList_GET_SIZE(todo) > 0) {
        PyObject *node = pop_last(todo), *name = NULL;
        int failed = 0;
        if (Py_IS_TYPE(node, ast_Name)) {
            PyObject *context = node_attr(node, str_ctx, 0);
            failed = context == NULL;
            if (!failed && !Py_IS_TYPE(context, ast_Load)) {
                name = node_attr(node, str_id, 0);
                failed = name == NULL || PySet_Add(found, name) < 0;
            }
            Py_XDECREF(context);
        }
        else if (Py_IS_TYPE(node, ast_alias)) {
            PyObject *asname = node_attr(node, str_asname, 0);
            if (asname != NULL && asname != Py_None) {
                name = asname;
            }
            else {
                Py_XDECREF(asname);
                PyObject *full = asname == NULL ? NULL : node_attr(node, str_name, 0);
                name = full == NULL || !PyUnicode_Check(full) ? NULL : head_of(full);
                Py_XDECREF(full);
            }
            failed = name == NULL || PySet_Add(found, name) < 0;
        }
        else {
            failed = append_children(node, todo) < 0;
        }
        Py_DECREF(node);
        Py_XDECREF(name);
        if (failed) {
            goto failed;
        }
    }
    Py_DECREF(todo);
    return found;
failed:
    if (!PyErr_Occurred()) {
        PyErr_SetString(PyExc_TypeError, "rebound(body): an alias without a name");
    }
    Py_XDECREF(found);
    Py_XDECREF(todo);
    return NULL;
}

/* Add the names one import statement binds to ``found`` (sinks.imported_by); -1 on failure. */
static int
add_imported_by(PyObject *statement, PyObject *found)
{
    PyObject *module = NULL;
    if (Py_IS_TYPE(statement, ast_ImportFrom)) {
        module = node_attr(statement, str_module, 0);
        if (module == NULL) {
            return -1;
        }
        int known = module != Py_None && PyObject_IsTrue(module);
        if (!known) { /* (`from . import x`: no module we know) */
            Py_DECREF(module);
            return PyErr_Occurred() ? -1 : 0;
        }
    }
    PyObject *aliases = node_attr(statement, str_names, 0);
    int failed = aliases == NULL || !PyList_Check(aliases);
    for (Py_ssize_t i = 0; !failed && i < PyList_GET_SIZE(aliases); i++) {
        PyObject *alias = PyList_GET_ITEM(aliases, i), *local = NULL, *full = NULL;
        PyObject *name = node_attr(alias, str_name, 0);
        PyObject *asname = name == NULL ? NULL : node_attr(alias, str_asname, 0);
        failed = asname == NULL || !PyUnicode_Check(name);
        if (!failed && module == NULL) { /* import a.b (as c) */
            int renamed = asname != Py_None && PyObject_IsTrue(asname);
            local = renamed ? Py_NewRef(asname) : head_of(name);
            full = renamed ? Py_NewRef(name) : Py_XNewRef(local);
        }
        else if (!failed && PyUnicode_Compare(name, str_star) != 0) { /* from a import b (as c) */
            int renamed = asname != Py_None && PyObject_IsTrue(asname);
            local = Py_NewRef(renamed ? asname : name);
            full = PyUnicode_FromFormat("%S.%S", module, name);
        }
        else if (!failed) { /* (`from a import *`: no name we know) */
            Py_DECREF(name);
            Py_DECREF(asname);
            continue;
        }
        failed = failed || local == NULL || full == NULL || PyErr_Occurred() ||
                 PyDict_SetItem(found, local, full) < 0;
        Py_XDECREF(name);
        Py_XDECREF(asname);
        Py_XDECREF(local);
        Py_XDECREF(full);
    }
    Py_XDECREF(aliases);
    Py_XDECREF(module);
    if (failed && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_TypeError, "an import statement without its names");
    }
    return failed ? -1 : 0;
}

static PyObject *
import_bindings(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyList_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "import_bindings(body, count)");
        return NULL;
    }
    Py_ssize_t count = PyLong_AsSsize_t(args[1]), seen = 0;
    if ((count == -1 && PyErr_Occurred()) || load_ast() < 0) {
        return NULL;
    }
    PyObject *body = args[0], *found = PyDict_New();
    for (Py_ssize_t i = 0; found != NULL && i < PyList_GET_SIZE(body); i++) {
        PyObject *statement = PyList_GET_ITEM(body, i);
        if (Py_IS_TYPE(statement, ast_Import) || Py_IS_TYPE(statement, ast_ImportFrom)) {
            seen++;
        }
    }
    if (found != NULL && seen != count) { /* an import in a function, or the word elsewhere */
        Py_DECREF(found);
        return Py_NewRef(Py_None);
    }
    for (Py_ssize_t i = 0; found != NULL && i < PyList_GET_SIZE(body); i++) {
        PyObject *statement = PyList_GET_ITEM(body, i);
        if ((Py_IS_TYPE(statement, ast_Import) || Py_IS_TYPE(statement, ast_ImportFrom)) &&
            add_imported_by(statement, found) < 0) {
            Py_CLEAR(found);
        }
    }
    return found;
}

/* ``dict.pop(key, missing)`` as a new reference; NULL with an exception on failure. */
static PyObject *
pop_or(PyObject *dict, PyObject *key, PyObject *missing)
{
    PyObject *value = PyDict_GetItemWithError(dict, key);
    if (value == NULL) {
        return PyErr_Occurred() ? NULL : Py_NewRef(missing);
    }
    Py_INCREF(value);
    if (PyDict_DelItem(dict, key) < 0) {
        Py_DECREF(value);
        return NULL;
    }
    return value;
}

/* ``put_aside_names[name] = ([statement], before)``, taking the reference ``before`` (NULL:
 * a failure already); -1 on failure. */
static int
note_put_aside(PyObject *put_aside_names, PyObject *name, PyObject *statement, PyObject *before)
{
    PyObject *statements = before == NULL ? NULL : PyList_New(1), *entry = NULL;
    if (statements != NULL) {
        PyList_SET_ITEM(statements, 0, Py_NewRef(statement));
        entry = PyTuple_Pack(2, statements, before);
    }
    int failed = entry == NULL || PyDict_SetItem(put_aside_names, name, entry) < 0;
    Py_XDECREF(before);
    Py_XDECREF(statements);
    Py_XDECREF(entry);
    return failed ? -1 : 0;
}

/* flow.Analysis._put_aside_binding for a name a statement changes without rebinding it
 * (``parts.append(...)``); -1 on failure. */
static int
put_aside_change(PyObject *put_aside_names, PyObject *module_names, PyObject *missing,
                 PyObject *name, PyObject *statement)
{
    PyObject *entry = PyDict_GetItemWithError(put_aside_names, name);
    if (entry == NULL) {
        if (PyErr_Occurred()) {
            return -1;
        }
        return note_put_aside(put_aside_names, name, statement,
                              pop_or(module_names, name, missing));
    }
    PyObject *statements = PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) == 2
                               ? PyTuple_GET_ITEM(entry, 0) : NULL;
    if (statements == NULL || !PyList_Check(statements) || PyList_GET_SIZE(statements) == 0) {
        PyErr_SetString(PyExc_TypeError, "put_aside_names holds (statements, before) pairs");
        return -1;
    }
    if (PyList_GET_ITEM(statements, PyList_GET_SIZE(statements) - 1) != statement) {
        return PyList_Append(statements, statement);
    }
    return 0;
}

/* ``d.pop(key, None)`` for a dict; -1 on failure. */
static int
discard(PyObject *dict, PyObject *key)
{
    int found = PyDict_Contains(dict, key);
    return found <= 0 ? found : PyDict_DelItem(dict, key);
}

/* ``forget_helper(name)`` if ``helpers[name]`` is there and is not ``now``; -1 on failure. */
static int
forget_other_helper(PyObject *helpers, PyObject *name, PyObject *now, PyObject *forget_helper)
{
    PyObject *helper = PyDict_GetItemWithError(helpers, name);
    if (helper == NULL || helper == now) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *done = PyObject_CallOneArg(forget_helper, name);
    Py_XDECREF(done);
    return done == NULL ? -1 : 0;
}

/* One statement of put_aside: 1 if it was a usual one and is noted, 0 if not, -1 on failure. */
static int
put_aside_usual(PyObject *statement, PyObject *const *tables, PyObject *forget_helper)
{
    PyObject *put_aside_names = tables[0], *module_names = tables[1], *helpers = tables[2],
             *unparsed = tables[3], *functions = tables[4], *returns = tables[5],
             *missing = tables[6];
    PyTypeObject *kind = Py_TYPE(statement);
    if (kind == ast_Assign) {
        PyObject *targets = node_attr(statement, str_targets, 0);
        if (targets == NULL) {
            return -1;
        }
        PyObject *target = PyList_Check(targets) && PyList_GET_SIZE(targets) == 1
                               ? PyList_GET_ITEM(targets, 0) : NULL;
        if (target == NULL || !Py_IS_TYPE(target, ast_Name)) {
            Py_DECREF(targets);
            return 0;
        }
        PyObject *name = node_attr(target, str_id, 0);
        Py_DECREF(targets);
        if (name == NULL) {
            return -1;
        }
        /* (A name put aside already: what came before it no longer matters.) */
        int already = PyDict_Contains(put_aside_names, name);
        PyObject *before = already < 0 ? NULL
                           : already  ? Py_NewRef(missing)
                                      : pop_or(module_names, name, missing);
        int failed = note_put_aside(put_aside_names, name, statement, before) < 0;
        if (!failed) { /* (bound again to what calls no sink: no longer a helper) */
            PyObject *value = node_attr(statement, str_value, 0);
            failed = value == NULL || forget_other_helper(helpers, name, value, forget_helper);
            Py_XDECREF(value);
        }
        Py_DECREF(name);
        return failed ? -1 : 1;
    }
    if (kind == ast_Expr) { /* `parts.append(...)` changes `parts` */
        PyObject *call = node_attr(statement, str_value, 0), *func = NULL, *owner = NULL;
        PyObject *name = NULL;
        int failed = call == NULL;
        if (!failed && Py_IS_TYPE(call, ast_Call)) {
            failed = (func = node_attr(call, str_func, 0)) == NULL;
            if (!failed && Py_IS_TYPE(func, ast_Attribute)) {
                failed = (owner = node_attr(func, str_value, 0)) == NULL;
                if (!failed && Py_IS_TYPE(owner, ast_Name)) {
                    failed = (name = node_attr(owner, str_id, 0)) == NULL ||
                             put_aside_change(put_aside_names, module_names, missing, name,
                                              statement) < 0;
                }
            }
        }
        Py_XDECREF(call);
        Py_XDECREF(func);
        Py_XDECREF(owner);
        Py_XDECREF(name);
        return failed ? -1 : 1;
    }
    if (kind == ast_FunctionDef || kind == ast_AsyncFunctionDef) {
        PyObject *name = node_attr(statement, str_name, 0);
        int failed = name == NULL || discard(functions, name) < 0 ||
                     discard(returns, name) < 0 ||
                     PyDict_SetItem(unparsed, name, statement) < 0 ||
                     forget_other_helper(helpers, name, statement, forget_helper) < 0;
        Py_XDECREF(name);
        return failed ? -1 : 1;
    }
    return 0;
}

static PyObject *
put_aside(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 11 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError,
                        "put_aside(statements, imports_read, put_aside_names, module_names, "
                        "helpers, unparsed, functions, returns, missing, forget_helper, other)");
        return NULL;
    }
    for (int i = 2; i < 8; i++) {
        if (!PyDict_Check(args[i])) {
            PyErr_SetString(PyExc_TypeError, "put_aside: the tables are dicts");
            return NULL;
        }
    }
    int imports_read = PyObject_IsTrue(args[1]);
    if (imports_read < 0 || load_ast() < 0) {
        return NULL;
    }
    PyObject *statements = args[0], *forget_helper = args[9], *other = args[10];
    /* (Held: `other` runs Python code that could change the list.) */
    Py_INCREF(statements);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(statements); i++) {
        PyObject *statement = Py_NewRef(PyList_GET_ITEM(statements, i));
        int done = put_aside_usual(statement, args + 2, forget_helper);
        if (done == 0 && !(imports_read && (Py_IS_TYPE(statement, ast_Import) ||
                                            Py_IS_TYPE(statement, ast_ImportFrom)))) {
            PyObject *result = PyObject_CallOneArg(other, statement);
            done = result == NULL ? -1 : 1;
            Py_XDECREF(result);
        }
        Py_DECREF(statement);
        if (done < 0) {
            Py_DECREF(statements);
            return NULL;
        }
    }
    Py_DECREF(statements);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/*
 * The judging of a cell's sink calls from each call alone (flow.Analysis._may_reach), which
 * runs for every cell that calls a sink:
 *
 *   may_reach(body, places, source, imports, tables, callbacks)
 *       Whether a formatted string may reach one of the sink calls at ``places`` ((line,
 *       column) pairs) of the module ``body``: each call found from its place, its possible
 *       sinks found in the memo of flow.Analysis._possible_sinks (else asked of it), and
 *       each way of passing a command among them (Sink.passing) judged here for the usual
 *       calls: a constant, a parameter never rebound, nothing in the command's place, an
 *       argument list of a program that runs no shell code.  Anything else is asked of
 *       Analysis._passes_no_format, the Python judgement, which stays the reference.
 *       ``tables``: (partials, helpers, method_helpers, the analysis's imports, the memo,
 *       rebound_in: what each function rebinds by its id, the sink table's version);
 *       ``callbacks``: (possible_sinks(func, imports), passes_no_format(call, sink,
 *       functions, source), plain_program(word)).
 */

static PyTypeObject *ast_Starred, *ast_List, *ast_Tuple;
static PyObject *str_args, *str_keywords, *str_arg, *str_elts, *str_posonlyargs,
    *str_kwonlyargs, *str_vararg, *str_kwarg, *str_passing, *str_body;

enum { MAY_REACH = 0, NO_FORMAT = 1, ASK_PYTHON = 2 }; /* a judgement; -1: an exception */

static int
load_judging(void)
{
    if (str_passing != NULL) {
        return 0;
    }
    if (load_ast() < 0) {
        return -1;
    }
    PyObject *ast = PyImport_ImportModule("ast");
    if (ast == NULL) {
        return -1;
    }
    struct {
        PyTypeObject **type;
        const char *name;
    } types[] = {{&ast_Starred, "Starred"}, {&ast_List, "List"}, {&ast_Tuple, "Tuple"}};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        PyObject *type = PyObject_GetAttrString(ast, types[i].name);
        if (type == NULL || !PyType_Check(type)) {
            Py_XDECREF(type);
            Py_DECREF(ast);
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError, "ast.%s is not a type", types[i].name);
            }
            return -1;
        }
        *types[i].type = (PyTypeObject *)type;
    }
    Py_DECREF(ast);
    struct {
        PyObject **str;
        const char *text;
    } strings[] = {
        {&str_args, "args"}, {&str_keywords, "keywords"}, {&str_arg, "arg"},
        {&str_elts, "elts"}, {&str_posonlyargs, "posonlyargs"}, {&str_kwonlyargs, "kwonlyargs"},
        {&str_vararg, "vararg"}, {&str_kwarg, "kwarg"}, {&str_body, "body"},
        {&str_passing, "passing"}, /* (set last: the flag of done) */
    };
    for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
        if ((*strings[i].str = PyUnicode_InternFromString(strings[i].text)) == NULL) {
            return -1;
        }
    }
    return 0;
}

/* ``node.name`` that must be a list, as a new reference; NULL with an exception. */
static PyObject *
list_attr(PyObject *node, PyObject *name)
{
    PyObject *value = node_attr(node, name, 0);
    if (value != NULL && !PyList_Check(value)) {
        PyErr_Format(PyExc_TypeError, "a node's %S is not a list", name);
        Py_CLEAR(value);
    }
    return value;
}

/* Whether ``keyword.arg`` is a string in ``names`` (a tuple): 1, 0, or -1. */
static int
keyword_named(PyObject *keyword, PyObject *names)
{
    PyObject *arg = node_attr(keyword, str_arg, 0);
    int found = arg == NULL ? -1 : arg == Py_None ? 0 : PySequence_Contains(names, arg);
    Py_XDECREF(arg);
    return found;
}

/* The value of the first keyword of ``keywords`` named in ``names``, a new reference;
 * ``*found`` 0 when none is. */
static PyObject *
keyword_value(PyObject *keywords, PyObject *names, int *found)
{
    *found = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keywords); i++) {
        PyObject *keyword = PyList_GET_ITEM(keywords, i);
        int named = keyword_named(keyword, names);
        if (named != 0) {
            *found = named > 0;
            return named < 0 ? NULL : node_attr(keyword, str_value, 0);
        }
    }
    return Py_NewRef(Py_None);
}

/* What ``call`` passes in the command's place (flow._argument): a new reference, None for
 * nothing, NULL with an exception. */
static PyObject *
call_argument(PyObject *args, PyObject *keywords, Py_ssize_t position, PyObject *names)
{
    Py_ssize_t count = PyList_GET_SIZE(args);
    int found;
    if (position == 0 && count > 0 && PyObject_TypeCheck(PyList_GET_ITEM(args, 0), ast_Starred)) {
        PyObject *value = keyword_value(keywords, names, &found);
        if (value == NULL || found) {
            return value;
        }
        Py_DECREF(value);
        return Py_NewRef(PyList_GET_ITEM(args, 0)); /* the query of `execute(*(q, params))` */
    }
    if (count > position) {
        int starred = 0;
        for (Py_ssize_t i = 0; i <= position; i++) {
            starred = starred || PyObject_TypeCheck(PyList_GET_ITEM(args, i), ast_Starred);
        }
        if (!starred) {
            return Py_NewRef(PyList_GET_ITEM(args, position));
        }
    }
    return keyword_value(keywords, names, &found);
}

/* Whether ``call`` may set the keyword ``name`` true, or passes ``**options`` that may
 * (flow._keyword_true, and the test for ``**`` beside it): 1, 0, or -1. */
static int
may_set_keyword(PyObject *keywords, PyObject *name)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keywords); i++) {
        PyObject *keyword = PyList_GET_ITEM(keywords, i);
        PyObject *arg = node_attr(keyword, str_arg, 0);
        if (arg == NULL) {
            return -1;
        }
        int named = arg == Py_None ? 1 : PyObject_RichCompareBool(arg, name, Py_EQ);
        Py_DECREF(arg);
        if (named != 0) {
            if (named < 0 || arg == Py_None) {
                return named < 0 ? -1 : 1;
            }
            PyObject *value = node_attr(keyword, str_value, 0);
            int set = -1;
            if (value != NULL) {
                if (!PyObject_TypeCheck(value, ast_Constant)) {
                    set = 1;
                }
                else {
                    PyObject *constant = node_attr(value, str_value, 0);
                    set = constant == NULL ? -1 : PyObject_IsTrue(constant);
                    Py_XDECREF(constant);
                }
                Py_DECREF(value);
            }
            if (set != 0) {
                return set;
            }
        }
    }
    return 0;
}

/* A constant node's value if it is a string (a new reference), else None; NULL on error. */
static PyObject *
constant_string(PyObject *node)
{
    if (!PyObject_TypeCheck(node, ast_Constant)) {
        return Py_NewRef(Py_None);
    }
    PyObject *value = node_attr(node, str_value, 0);
    if (value != NULL && !PyUnicode_Check(value)) {
        Py_SETREF(value, Py_NewRef(Py_None));
    }
    return value;
}

/* The judgement of an argument list passed where a shell flag is off (``["ls", name]``):
 * NO_FORMAT when its first word is a constant program that runs no shell code, else
 * ASK_PYTHON (flow._shell_c_argument finds the code). */
static int
judge_argv(PyObject *argv, PyObject *plain_program)
{
    PyObject *elements = list_attr(argv, str_elts);
    if (elements == NULL) {
        return -1;
    }
    int judged = NO_FORMAT; /* (no constant program first: no shell code found) */
    if (PyList_GET_SIZE(elements) > 0) {
        PyObject *word = constant_string(PyList_GET_ITEM(elements, 0));
        if (word == NULL) {
            judged = -1;
        }
        else if (word != Py_None) {
            PyObject *plain = PyObject_CallOneArg(plain_program, word);
            int is_plain = plain == NULL ? -1 : PyObject_IsTrue(plain);
            Py_XDECREF(plain);
            judged = is_plain < 0 ? -1 : is_plain ? NO_FORMAT : ASK_PYTHON;
        }
        Py_XDECREF(word);
    }
    Py_DECREF(elements);
    return judged;
}

/* Whether ``name`` is a parameter of one of ``functions``: 1, 0, or -1. */
static int
is_parameter(PyObject *functions, PyObject *name)
{
    PyObject *lists[] = {str_posonlyargs, str_args, str_kwonlyargs};
    PyObject *singles[] = {str_vararg, str_kwarg};
    for (Py_ssize_t f = 0; f < PyList_GET_SIZE(functions); f++) {
        PyObject *arguments = node_attr(PyList_GET_ITEM(functions, f), str_args, 0);
        if (arguments == NULL) {
            return -1;
        }
        int found = 0;
        for (size_t i = 0; found == 0 && i < 5; i++) {
            PyObject *items = i < 3 ? list_attr(arguments, lists[i])
                                    : node_attr(arguments, singles[i - 3], 0);
            if (items == NULL) {
                found = -1;
                break;
            }
            if (i >= 3) { /* (one argument or None: as a list of it) */
                PyObject *one = items == Py_None ? PyList_New(0) : PyList_New(1);
                if (one != NULL && items != Py_None) {
                    PyList_SET_ITEM(one, 0, Py_NewRef(items));
                }
                Py_SETREF(items, one);
                if (items == NULL) {
                    found = -1;
                    break;
                }
            }
            for (Py_ssize_t k = 0; found == 0 && k < PyList_GET_SIZE(items); k++) {
                PyObject *arg = node_attr(PyList_GET_ITEM(items, k), str_arg, 0);
                found = arg == NULL ? -1 : PyObject_RichCompareBool(arg, name, Py_EQ);
                Py_XDECREF(arg);
            }
            Py_DECREF(items);
        }
        Py_DECREF(arguments);
        if (found != 0) {
            return found;
        }
    }
    return 0;
}

/* Whether the outermost of ``functions`` rebinds ``name`` (flow._rebound, kept per function
 * in ``rebound_in`` by its id): 1, 0, or -1. */
static int
is_rebound(PyObject *functions, PyObject *name, PyObject *rebound_in)
{
    PyObject *outer = PyList_GET_ITEM(functions, 0);
    PyObject *key = PyLong_FromVoidPtr(outer); /* (its id(), as the Python version keys it) */
    if (key == NULL) {
        return -1;
    }
    PyObject *names = Py_XNewRef(PyDict_GetItemWithError(rebound_in, key));
    if (names == NULL && !PyErr_Occurred()) {
        PyObject *body = node_attr(outer, str_body, 0);
        names = body == NULL ? NULL : rebound(NULL, body);
        Py_XDECREF(body);
        if (names != NULL && PyDict_SetItem(rebound_in, key, names) < 0) {
            Py_CLEAR(names);
        }
    }
    Py_DECREF(key);
    int found = names == NULL ? -1 : PySequence_Contains(names, name);
    Py_XDECREF(names);
    return found;
}

/* Whether ``call`` of a sink that passes its command as ``passing`` (Sink.passing) surely
 * gets no formatted string, judged from the call alone: flow.Analysis._passes_no_format for
 * the usual calls, ASK_PYTHON for the others. */
static int
judge_call(PyObject *call, PyObject *passing, PyObject *functions, PyObject *rebound_in,
           PyObject *plain_program)
{
    /* (argument, keywords, shell_keyword, shell_argv, argv0, split, magic_names,
     * ipython_expands, program) */
    if (!PyTuple_Check(passing) || PyTuple_GET_SIZE(passing) != 9 ||
        !PyLong_Check(PyTuple_GET_ITEM(passing, 0)) ||
        !PyTuple_Check(PyTuple_GET_ITEM(passing, 1)) ||
        !PyTuple_Check(PyTuple_GET_ITEM(passing, 6))) {
        return ASK_PYTHON; /* (a sink of a shape not known here) */
    }
    Py_ssize_t position = PyLong_AsSsize_t(PyTuple_GET_ITEM(passing, 0));
    PyObject *names = PyTuple_GET_ITEM(passing, 1), *shell_keyword = PyTuple_GET_ITEM(passing, 2);
    int shell_argv = PyObject_IsTrue(PyTuple_GET_ITEM(passing, 3));
    int split = PyObject_IsTrue(PyTuple_GET_ITEM(passing, 5));
    int magic = PyTuple_GET_SIZE(PyTuple_GET_ITEM(passing, 6)) > 0;
    int expands = PyObject_IsTrue(PyTuple_GET_ITEM(passing, 7));
    if ((position == -1 && PyErr_Occurred()) || shell_argv < 0 || split < 0 || expands < 0) {
        return -1;
    }
    if (position < 0) {
        return ASK_PYTHON;
    }
    PyObject *args = list_attr(call, str_args);
    PyObject *keywords = args == NULL ? NULL : list_attr(call, str_keywords);
    PyObject *argument = keywords == NULL ? NULL
                                          : call_argument(args, keywords, position, names);
    int judged = argument == NULL ? -1 : ASK_PYTHON;
    if (judged == -1) {
        goto done;
    }
    if (shell_keyword != Py_None) {
        int set = may_set_keyword(keywords, shell_keyword);
        if (set < 0) {
            judged = -1;
            goto done;
        }
        if (!set) {
            if (!(shell_argv && (PyObject_TypeCheck(argument, ast_List) ||
                                 PyObject_TypeCheck(argument, ast_Tuple)))) {
                judged = NO_FORMAT; /* no shell: the command is a program's path */
            }
            else {
                judged = judge_argv(argument, plain_program);
            }
            goto done;
        }
    }
    if (split || (shell_argv && shell_keyword == Py_None)) {
        goto done; /* (the code inside a command line or argument list: Python finds it) */
    }
    if (argument == Py_None) {
        judged = NO_FORMAT;
        goto done;
    }
    if (magic) {
        goto done; /* (which magic runs: Python reads its name) */
    }
    if (PyObject_TypeCheck(argument, ast_Starred)) { /* `*sql(i"...")`: what it holds */
        Py_SETREF(argument, node_attr(argument, str_value, 0));
        if (argument == NULL) {
            judged = -1;
            goto done;
        }
    }
    if (PyObject_TypeCheck(argument, ast_Constant)) {
        /* (`!ls`, `%sx ls`: a constant, but IPython expands `{x}` and `$x` in it.) */
        PyObject *text = constant_string(argument);
        int expanded = 0;
        if (text != NULL && text != Py_None && expands) {
            expanded = PyUnicode_FindChar(text, '{', 0, PyUnicode_GET_LENGTH(text), 1) >= 0 ||
                       PyUnicode_FindChar(text, '$', 0, PyUnicode_GET_LENGTH(text), 1) >= 0;
        }
        judged = text == NULL ? -1 : expanded ? MAY_REACH : NO_FORMAT;
        Py_XDECREF(text);
    }
    else if (PyObject_TypeCheck(argument, ast_Name)) {
        PyObject *name = node_attr(argument, str_id, 0);
        int parameter = name == NULL                          ? -1
                        : PyList_GET_SIZE(functions) == 0 ? 0
                                                              : is_parameter(functions, name);
        int again = parameter > 0 ? is_rebound(functions, name, rebound_in) : 1;
        judged = parameter < 0 || again < 0 ? -1 : again ? MAY_REACH : NO_FORMAT;
        Py_XDECREF(name);
    }
    else if (!(PyObject_TypeCheck(argument, ast_Call))) {
        judged = MAY_REACH;
    }
    /* (a call: which function it is, Python reads) */
done:
    Py_XDECREF(args);
    Py_XDECREF(keywords);
    Py_XDECREF(argument);
    return judged;
}

/* The index of the last statement of ``body`` that starts on or before ``line`` (as
 * ``bisect_right(body, line, key=lineno) - 1``); -1 for none, -2 with an exception. */
static Py_ssize_t
statement_at(PyObject *body, long line)
{
    Py_ssize_t low = 0, high = PyList_GET_SIZE(body);
    while (low < high) {
        Py_ssize_t middle = (low + high) / 2;
        PyObject *number = node_attr(PyList_GET_ITEM(body, middle), str_lineno, 0);
        long start = number == NULL ? -1 : PyLong_AsLong(number);
        Py_XDECREF(number);
        if (start == -1 && (number == NULL || PyErr_Occurred())) {
            return -2;
        }
        if (line < start) {
            high = middle;
        }
        else {
            low = middle + 1;
        }
    }
    return low - 1;
}

/* The memo's key of the possible sinks of ``func``, named ``last`` at its end, as
 * flow.Analysis._possible_sinks makes it: (name, type, what ``imports`` and the analysis's
 * imports import its first part as, whether either imports ``last``, the table's version). */
static PyObject *
sinks_key(PyObject *func, PyObject *last, PyObject *imports, PyObject *own_imports,
          PyObject *version)
{
    PyObject *name = dotted(NULL, func), *key = NULL;
    PyObject *head = name == NULL ? NULL : head_of(name);
    if (head != NULL) {
        PyObject *imported = PyDict_GetItemWithError(imports, head);
        PyObject *own = imported == NULL && PyErr_Occurred()
                            ? NULL
                            : PyDict_GetItemWithError(own_imports, head);
        int either = PyErr_Occurred() ? -1 : PyDict_Contains(imports, last);
        either = either == 0 ? PyDict_Contains(own_imports, last) : either;
        if (either >= 0) {
            key = PyTuple_Pack(6, name, (PyObject *)Py_TYPE(func),
                               imported == NULL ? Py_None : imported,
                               own == NULL ? Py_None : own, either ? Py_True : Py_False,
                               version);
        }
    }
    Py_XDECREF(name);
    Py_XDECREF(head);
    return key;
}

/* The sinks ``func`` may name (a new reference to a list or tuple; NULL with an exception):
 * flow.Analysis._possible_sinks, from its memo when it holds them. */
static PyObject *
possible_sinks_of(PyObject *func, PyObject *imports, PyObject *tables, PyObject *callbacks)
{
    PyObject *helpers = PyTuple_GET_ITEM(tables, 1), *method_helpers = PyTuple_GET_ITEM(tables, 2);
    PyObject *own_imports = PyTuple_GET_ITEM(tables, 3), *memo = PyTuple_GET_ITEM(tables, 4);
    PyObject *version = PyTuple_GET_ITEM(tables, 6);
    PyObject *last = NULL, *key = NULL, *found = NULL;
    if (PyObject_TypeCheck(func, ast_Attribute)) {
        last = node_attr(func, str_attr, 0);
    }
    else if (PyObject_TypeCheck(func, ast_Name)) {
        last = node_attr(func, str_id, 0);
    }
    else {
        return PyList_New(0); /* (a call of a call's result, say: no sink by name) */
    }
    int memoized = last == NULL ? -1 : PyUnicode_Check(last) && PyDict_Check(imports);
    if (memoized > 0) { /* (not a helper's name: what those are changes from cell to cell) */
        int helper = PyDict_Contains(helpers, last);
        helper = helper == 0 ? PyDict_Contains(method_helpers, last) : helper;
        memoized = helper < 0 ? -1 : !helper;
    }
    if (memoized > 0) {
        key = sinks_key(func, last, imports, own_imports, version);
        found = key == NULL ? NULL : Py_XNewRef(PyDict_GetItemWithError(memo, key));
        memoized = key == NULL || (found == NULL && PyErr_Occurred()) ? -1 : 1;
    }
    if (memoized >= 0 && found == NULL) {
        found = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(callbacks, 0), func, imports, NULL);
    }
    Py_XDECREF(last);
    Py_XDECREF(key);
    if (found != NULL && !PyList_Check(found) && !PyTuple_Check(found)) {
        PyErr_SetString(PyExc_TypeError, "possible_sinks(): a list of sinks");
        Py_CLEAR(found);
    }
    return found;
}

enum { PASSINGS_KEPT = 16 }; /* ways of passing remembered per call (more are judged again) */

/* The judgement of one sink call found at (line, column): 1 when a formatted string may
 * reach it, 0 when surely not, -1 with an exception. */
static int
may_reach_call(PyObject *call, PyObject *functions, PyObject *const *args)
{
    PyObject *source = args[2], *imports = args[3], *tables = args[4], *callbacks = args[5];
    PyObject *partials = PyTuple_GET_ITEM(tables, 0), *rebound_in = PyTuple_GET_ITEM(tables, 5);
    PyObject *func = node_attr(call, str_func, 0);
    if (func == NULL) {
        return -1;
    }
    if (PyObject_TypeCheck(func, ast_Name)) {
        PyObject *id = node_attr(func, str_id, 0);
        int partial = id == NULL ? -1 : PySequence_Contains(partials, id);
        Py_XDECREF(id);
        if (partial != 0) {
            Py_DECREF(func);
            return partial;
        }
    }
    PyObject *sinks = possible_sinks_of(func, imports, tables, callbacks);
    Py_DECREF(func);
    if (sinks == NULL) {
        return -1;
    }
    /* Sinks that take their command alike are judged once (their ways of passing are one
     * object: see Sink.passing). */
    PyObject *judged_passings[PASSINGS_KEPT];
    Py_ssize_t njudged = 0;
    int reaches = 0;
    for (Py_ssize_t i = 0; reaches == 0 && i < PySequence_Fast_GET_SIZE(sinks); i++) {
        PyObject *sink = PySequence_Fast_GET_ITEM(sinks, i);
        PyObject *passing = PyObject_GetAttr(sink, str_passing);
        if (passing == NULL) {
            reaches = -1;
            break;
        }
        int seen = 0;
        for (Py_ssize_t k = 0; k < njudged; k++) {
            seen = seen || judged_passings[k] == passing;
        }
        int judged = NO_FORMAT;
        if (!seen) {
            if (njudged < PASSINGS_KEPT) {
                judged_passings[njudged++] = passing; /* (the sink holds it alive) */
            }
            judged = judge_call(call, passing, functions, rebound_in,
                                PyTuple_GET_ITEM(callbacks, 2));
        }
        Py_DECREF(passing);
        if (judged == ASK_PYTHON) {
            PyObject *answer = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(callbacks, 1), call,
                                                            sink, functions, source, NULL);
            judged = answer == NULL ? -1 : PyObject_IsTrue(answer);
            Py_XDECREF(answer);
        }
        reaches = judged < 0 ? -1 : judged == MAY_REACH;
    }
    Py_DECREF(sinks);
    return reaches;
}

static PyObject *
may_reach(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !PyList_Check(args[0]) || !PyList_Check(args[1]) ||
        !PyTuple_Check(args[4]) || PyTuple_GET_SIZE(args[4]) != 7 ||
        !PyDict_Check(PyTuple_GET_ITEM(args[4], 1)) ||
        !PyDict_Check(PyTuple_GET_ITEM(args[4], 2)) ||
        !PyDict_Check(PyTuple_GET_ITEM(args[4], 3)) ||
        !PyDict_Check(PyTuple_GET_ITEM(args[4], 4)) ||
        !PyDict_Check(PyTuple_GET_ITEM(args[4], 5)) || !PyTuple_Check(args[5]) ||
        PyTuple_GET_SIZE(args[5]) != 3) {
        PyErr_SetString(PyExc_TypeError,
                        "may_reach(body, places, source, imports, (partials, helpers, "
                        "method_helpers, own_imports, memo, rebound_in, version), "
                        "(possible_sinks, passes_no_format, plain_program))");
        return NULL;
    }
    if (load_judging() < 0) {
        return NULL;
    }
    PyObject *body = args[0], *places = args[1];
    int reaches = 0;
    for (Py_ssize_t i = 0; reaches == 0 && i < PyList_GET_SIZE(places); i++) {
        PyObject *place = PyList_GET_ITEM(places, i);
        long line, column;
        if (!PyTuple_Check(place) || PyTuple_GET_SIZE(place) != 2 ||
            ((line = PyLong_AsLong(PyTuple_GET_ITEM(place, 0))) == -1 && PyErr_Occurred()) ||
            ((column = PyLong_AsLong(PyTuple_GET_ITEM(place, 1))) == -1 && PyErr_Occurred())) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "a place is a (line, column) tuple");
            }
            return NULL;
        }
        Py_ssize_t index = statement_at(body, line);
        if (index == -2) {
            return NULL;
        }
        PyObject *found = index < 0 ? Py_NewRef(Py_None)
                                    : find_call(PyList_GET_ITEM(body, index), line, column);
        if (found == NULL) {
            return NULL;
        }
        if (found == Py_None) {
            reaches = 1; /* not a call the tree shows where the text does: be thorough */
        }
        else {
            reaches = may_reach_call(PyTuple_GET_ITEM(found, 0), PyTuple_GET_ITEM(found, 1), args);
        }
        Py_DECREF(found);
    }
    return reaches < 0 ? NULL : PyBool_FromLong(reaches);
}

/* ------------------------------------------------------------------------------------------ */
/*
 * The search of a text for the calls that may be sinks (check/sinks.py), which runs for every
 * cell IPython prepares:
 *
 *   calls_in(source, method_names, functions_match, heads)
 *       sinks.CallFinder._python_calls_in: the offsets of the calls that may be sinks.  Its
 *       method pattern ``\.\s*(?:NAMES)\s*\(`` (NAMES: ``method_names``, ASCII identifiers)
 *       is found by a scan from dot to dot (the regex engine tried the names at each dot, most
 *       of the check of a cell without sink calls); the sink functions are tried with
 *       ``functions_match(source, at)`` (their pattern's ``match``, or None for none) where
 *       one of ``heads`` is; the matches kept as the one pattern would find them, and those
 *       inside a longer name left out.
 */

typedef struct {
    Py_ssize_t start, end;
} Span;

typedef struct {
    Span *items;
    Py_ssize_t count, allocated;
} Spans;

static int
spans_append(Spans *spans, Py_ssize_t start, Py_ssize_t end)
{
    if (spans->count == spans->allocated) {
        Py_ssize_t allocated = spans->allocated ? 2 * spans->allocated : 16;
        Span *items = PyMem_Realloc(spans->items, (size_t)allocated * sizeof(Span));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        spans->items = items;
        spans->allocated = allocated;
    }
    spans->items[spans->count++] = (Span){start, end};
    return 0;
}

static int
compare_spans(const void *a, const void *b)
{
    const Span *x = a, *y = b;
    return x->start != y->start ? (x->start > y->start) - (x->start < y->start)
                                : (x->end > y->end) - (x->end < y->end);
}

static int
ascii_word(Py_UCS4 c)
{
    return c < 128 && (Py_ISALNUM(c) || c == '_');
}

/* The next dot of the text at or after ``at``; ``length`` if none. */
static Py_ssize_t
next_dot(int kind, const void *data, Py_ssize_t at, Py_ssize_t length)
{
    if (kind == PyUnicode_1BYTE_KIND) {
        const char *found = at < length ? memchr((const char *)data + at, '.', (size_t)(length - at))
                                        : NULL;
        return found == NULL ? length : found - (const char *)data;
    }
    while (at < length && PyUnicode_READ(kind, data, at) != '.') {
        at++;
    }
    return at;
}

/* Append the spans of ``\.\s*(?:NAMES)\s*\(`` in ``source``, as finditer gives them. */
static int
method_spans(PyObject *source, PyObject *names, Spans *spans)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(source);
    int kind = PyUnicode_KIND(source);
    const void *data = PyUnicode_DATA(source);
    Py_ssize_t at = next_dot(kind, data, 0, length);
    while (at < length) {
        Py_ssize_t k = at + 1;
        while (k < length && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k))) {
            k++;
        }
        Py_ssize_t word = k;
        while (k < length && ascii_word(PyUnicode_READ(kind, data, k))) {
            k++;
        }
        Py_ssize_t next = at + 1; /* (where the search goes on: after a match, its end) */
        /* A name matches only as the whole word: the pattern goes on with \s*\(. */
        if (k > word) {
            PyObject *name = PyUnicode_Substring(source, word, k);
            int known = name == NULL ? -1 : PySet_Contains(names, name);
            Py_XDECREF(name);
            if (known < 0) {
                return -1;
            }
            while (known && k < length && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k))) {
                k++;
            }
            if (known && k < length && PyUnicode_READ(kind, data, k) == '(') {
                if (spans_append(spans, at, k + 1) < 0) {
                    return -1;
                }
                next = k + 1;
            }
        }
        at = next_dot(kind, data, next, length);
    }
    return 0;
}

/* Append the spans of the sink functions' matches where one of ``heads`` is. */
static int
function_spans(PyObject *source, PyObject *match, PyObject *heads, Spans *spans)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(source);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(heads); i++) {
        PyObject *head = PyTuple_GET_ITEM(heads, i);
        Py_ssize_t at = PyUnicode_Find(source, head, 0, length, 1);
        while (at >= 0) {
            PyObject *position = PyLong_FromSsize_t(at);
            PyObject *found = position == NULL ? NULL
                              : PyObject_CallFunctionObjArgs(match, source, position, NULL);
            Py_XDECREF(position);
            if (found == NULL) {
                return -1;
            }
            if (found != Py_None) {
                PyObject *span = PyObject_CallMethod(found, "span", NULL);
                Py_ssize_t start = -1, end = -1;
                int failed = span == NULL || !PyArg_ParseTuple(span, "nn", &start, &end) ||
                             spans_append(spans, start, end) < 0;
                Py_XDECREF(span);
                if (failed) {
                    Py_DECREF(found);
                    return -1;
                }
            }
            Py_DECREF(found);
            at = PyUnicode_Find(source, head, at + 1, length, 1);
        }
        if (at == -2) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
calls_in(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyUnicode_Check(args[0]) || !PyAnySet_Check(args[1]) ||
        !PyTuple_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "calls_in(source, method_names, functions_match, heads)");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[3]); i++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(args[3], i))) {
            PyErr_SetString(PyExc_TypeError, "calls_in(): heads are strings");
            return NULL;
        }
    }
    PyObject *source = args[0], *match = args[2], *found = NULL;
    Spans spans = {NULL, 0, 0};
    if (method_spans(source, args[1], &spans) < 0) {
        goto done;
    }
    if (match != Py_None) {
        if (function_spans(source, match, args[3], &spans) < 0) {
            goto done;
        }
        /* As the one pattern would search: the first match, then the first after it. */
        if (spans.count > 1) {
            qsort(spans.items, (size_t)spans.count, sizeof(Span), compare_spans);
        }
        Py_ssize_t kept = 0;
        for (Py_ssize_t i = 0; i < spans.count; i++) {
            if (kept == 0 || spans.items[i].start >= spans.items[kept - 1].end) {
                spans.items[kept++] = spans.items[i];
            }
        }
        spans.count = kept;
    }
    int kind = PyUnicode_KIND(source);
    const void *data = PyUnicode_DATA(source);
    found = PyList_New(0);
    for (Py_ssize_t i = 0; found != NULL && i < spans.count; i++) {
        Py_ssize_t start = spans.items[i].start;
        if (start < 0 || start > PyUnicode_GET_LENGTH(source)) {
            PyErr_SetString(PyExc_ValueError, "calls_in(): a match outside the source");
            Py_CLEAR(found);
            break;
        }
        /* (a match inside a longer name, `xrun(` for `run(`, is none) */
        if (start > 0 && start < PyUnicode_GET_LENGTH(source) &&
            PyUnicode_READ(kind, data, start) != '.') {
            Py_UCS4 before = PyUnicode_READ(kind, data, start - 1);
            if (Py_UNICODE_ISALNUM(before) || before == '_') {
                continue;
            }
        }
        PyObject *offset = PyLong_FromSsize_t(start);
        if (offset == NULL || PyList_Append(found, offset) < 0) {
            Py_CLEAR(found);
        }
        Py_XDECREF(offset);
    }
done:
    PyMem_Free(spans.items);
    return found;
}

/* ------------------------------------------------------------------------------------------ */
/*
 * The helper noting of the cell check (flow.Analysis._note_helpers and helper_calls), which
 * runs for every cell that calls a sink once the user has defined a helper (a function that
 * passes a parameter to a sink):
 *
 *   statements_on(body, lines)                 flow._python_statements_on
 *   helper_statements(body, lines)             flow._python_helper_statements
 *   called_offsets(source, calls, commands)    flow._python_called_offsets
 *   has_text(source, text)                     flow._python_has_text
 *
 * The Python versions stay the reference (tests/test_speedups.py compares them).
 */

static PyTypeObject *ast_Lambda;

/* The ast types this part reads besides the walks' ones, fetched on its first use. */
static int
load_helper_types(void)
{
    if (ast_Lambda != NULL) {
        return 0;
    }
    if (load_ast() < 0) {
        return -1;
    }
    PyObject *ast = PyImport_ImportModule("ast");
    PyObject *type = ast == NULL ? NULL : PyObject_GetAttrString(ast, "Lambda");
    Py_XDECREF(ast);
    if (type == NULL || !PyType_Check(type)) {
        Py_XDECREF(type);
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "ast.Lambda is not a type");
        }
        return -1;
    }
    ast_Lambda = (PyTypeObject *)type; /* (held for good, as the module is) */
    return 0;
}

/* ``*out = int(value)`` for a line number: 0, or -1 with an exception (TypeError if it is
 * not an int, as comparing it with one would raise). */
static int
line_value(PyObject *value, long *out)
{
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a line number is not an int");
        return -1;
    }
    *out = PyLong_AsLong(value);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* The line of ``body[index]``: its ``lineno``, or with ``to_end`` its ``end_lineno or
 * lineno``.  0 with the line in ``*out``, 1 if the list has no such index any more, -1 with
 * an exception. */
static int
statement_line(PyObject *body, Py_ssize_t index, int to_end, long *out)
{
    if (index >= PyList_GET_SIZE(body)) {
        return 1;
    }
    PyObject *node = Py_NewRef(PyList_GET_ITEM(body, index)), *value = NULL;
    if (to_end) {
        value = node_attr(node, str_end_lineno, 0);
        int truth = value == NULL ? -1 : PyObject_IsTrue(value);
        if (truth == 0) {
            Py_CLEAR(value);
        }
        else if (truth < 0) {
            Py_CLEAR(value);
            Py_DECREF(node);
            return -1;
        }
    }
    if (value == NULL) {
        value = node_attr(node, str_lineno, 0);
    }
    Py_DECREF(node);
    int failed = value == NULL || line_value(value, out) < 0;
    Py_XDECREF(value);
    return failed ? -1 : 0;
}

static int
compare_indexes(const void *a, const void *b)
{
    Py_ssize_t x = *(const Py_ssize_t *)a, y = *(const Py_ssize_t *)b;
    return (x > y) - (x < y);
}

/* statement_line through ``known`` (2 per statement: its start and end lines, LONG_MIN
 * while not read; ``size`` statements): the bisections of the lines read the same middle
 * statements. */
static int
known_line(PyObject *body, Py_ssize_t index, int to_end, long *known, Py_ssize_t size, long *out)
{
    if (index < size && known[2 * index + to_end] != LONG_MIN) {
        *out = known[2 * index + to_end];
        return 0;
    }
    int got = statement_line(body, index, to_end, out);
    if (got == 0 && index < size) {
        known[2 * index + to_end] = *out;
    }
    return got;
}

#define STACK_STATEMENTS 64

/* The indexes of the statements of ``body`` spanning one of ``lines`` (bisect_right by
 * ``lineno``, then back while ``end_lineno or lineno`` reaches the line), sorted and
 * distinct, into ``*found`` (PyMem, freed by the caller; ``*count`` of them).  -1 with an
 * exception on failure. */
static int
spanning_indexes(PyObject *body, PyObject *lines, Py_ssize_t **found, Py_ssize_t *count)
{
    *found = NULL;
    *count = 0;
    if (!PyList_Check(body) || !PyList_Check(lines)) {
        PyErr_SetString(PyExc_TypeError, "(body: list of statements, lines: list of ints)");
        return -1;
    }
    Py_ssize_t size = PyList_GET_SIZE(body), room = 0;
    long stack[2 * STACK_STATEMENTS], *known = stack;
    if (size > STACK_STATEMENTS && (known = PyMem_New(long, 2 * size)) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < 2 * size; i++) {
        known[i] = LONG_MIN;
    }
    int failed = 0;
    for (Py_ssize_t k = 0; !failed && k < PyList_GET_SIZE(lines); k++) {
        long line;
        if (line_value(PyList_GET_ITEM(lines, k), &line) < 0) {
            failed = 1;
            break;
        }
        Py_ssize_t low = 0, high = PyList_GET_SIZE(body);
        while (low < high) {
            Py_ssize_t middle = low + (high - low) / 2;
            long start;
            int got = known_line(body, middle, 0, known, size, &start);
            if (got != 0) {
                if (got > 0) {
                    PyErr_SetString(PyExc_RuntimeError, "the body changed size");
                }
                failed = 1;
                break;
            }
            if (line < start) {
                high = middle;
            }
            else {
                low = middle + 1;
            }
        }
        for (Py_ssize_t index = low - 1; !failed && index >= 0; index--) {
            long end;
            int got = known_line(body, index, 1, known, size, &end);
            if (got < 0) {
                failed = 1;
                break;
            }
            if (got > 0 || end < line) {
                break;
            }
            if (*count == room) {
                room = room ? room * 2 : 8;
                Py_ssize_t *grown = PyMem_New(Py_ssize_t, room);
                if (grown == NULL) {
                    PyErr_NoMemory();
                    failed = 1;
                    break;
                }
                if (*count) {
                    memcpy(grown, *found, (size_t)*count * sizeof(Py_ssize_t));
                }
                PyMem_Free(*found);
                *found = grown;
            }
            (*found)[(*count)++] = index;
        }
    }
    if (known != stack) {
        PyMem_Free(known);
    }
    if (failed) {
        return -1;
    }
    if (*count > 16) {
        qsort(*found, (size_t)*count, sizeof(Py_ssize_t), compare_indexes);
    }
    else if (*count > 1) {
        Py_ssize_t *items = *found; /* (a few: an insertion sort, without qsort's calls) */
        for (Py_ssize_t i = 1; i < *count; i++) {
            Py_ssize_t item = items[i], k = i;
            for (; k > 0 && items[k - 1] > item; k--) {
                items[k] = items[k - 1];
            }
            items[k] = item;
        }
    }
    if (*count > 1) {
        Py_ssize_t kept = 1;
        for (Py_ssize_t i = 1; i < *count; i++) {
            if ((*found)[i] != (*found)[kept - 1]) {
                (*found)[kept++] = (*found)[i];
            }
        }
        *count = kept;
    }
    return 0;
}

static PyObject *
statements_on(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "statements_on(body, lines)");
        return NULL;
    }
    if (load_helper_types() < 0) {
        return NULL;
    }
    Py_ssize_t *found, count;
    if (spanning_indexes(args[0], args[1], &found, &count) < 0) {
        PyMem_Free(found);
        return NULL;
    }
    PyObject *indexes = PyList_New(count);
    for (Py_ssize_t i = 0; indexes != NULL && i < count; i++) {
        PyObject *index = PyLong_FromSsize_t(found[i]);
        if (index == NULL) {
            Py_CLEAR(indexes);
            break;
        }
        PyList_SET_ITEM(indexes, i, index);
    }
    PyMem_Free(found);
    return indexes;
}

/* Whether ``statement`` may define a helper (flow._helper_candidates): a function, or an
 * assignment of a lambda or of a call to one name.  1, 0, or -1 with an exception. */
static int
may_define_helper(PyObject *statement)
{
    PyTypeObject *kind = Py_TYPE(statement);
    if (kind == ast_FunctionDef || kind == ast_AsyncFunctionDef) {
        return 1;
    }
    if (kind != ast_Assign) {
        return 0;
    }
    PyObject *targets = node_attr(statement, str_targets, 0);
    if (targets == NULL) {
        return -1;
    }
    Py_ssize_t size = PyObject_Size(targets);
    PyObject *first = size == 1 ? PySequence_GetItem(targets, 0) : NULL;
    Py_DECREF(targets);
    if (size < 0 || (size == 1 && first == NULL)) {
        return -1;
    }
    int named = first != NULL && Py_TYPE(first) == ast_Name;
    Py_XDECREF(first);
    if (!named) {
        return 0;
    }
    PyObject *value = node_attr(statement, str_value, 0);
    if (value == NULL) {
        return -1;
    }
    int made = Py_TYPE(value) == ast_Lambda || Py_TYPE(value) == ast_Call;
    Py_DECREF(value);
    return made;
}

static PyObject *
helper_statements(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "helper_statements(body, lines)");
        return NULL;
    }
    if (load_helper_types() < 0) {
        return NULL;
    }
    PyObject *body = args[0];
    Py_ssize_t *found, count;
    if (spanning_indexes(body, args[1], &found, &count) < 0) {
        PyMem_Free(found);
        return NULL;
    }
    PyObject *candidates = PyList_New(0);
    for (Py_ssize_t i = 0; candidates != NULL && i < count; i++) {
        if (found[i] >= PyList_GET_SIZE(body)) {
            PyErr_SetString(PyExc_IndexError, "list index out of range");
            Py_CLEAR(candidates);
            break;
        }
        PyObject *statement = Py_NewRef(PyList_GET_ITEM(body, found[i]));
        int may = may_define_helper(statement);
        if (may < 0 || (may && PyList_Append(candidates, statement) < 0)) {
            Py_CLEAR(candidates);
        }
        Py_DECREF(statement);
    }
    PyMem_Free(found);
    return candidates;
}

/* The first occurrence of ``name`` in ``source`` at or after ``from``: its start, -1 for
 * none, -2 with an exception.  (memchr for the first character when both are of one byte per
 * character, the usual cell: cheaper than PyUnicode_Find's set-up, asked once per match.) */
static Py_ssize_t
find_name(PyObject *source, PyObject *name, Py_ssize_t from)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(source), size = PyUnicode_GET_LENGTH(name);
    if (size == 0 || PyUnicode_KIND(source) != PyUnicode_1BYTE_KIND ||
        PyUnicode_KIND(name) != PyUnicode_1BYTE_KIND) {
        return PyUnicode_Find(source, name, from, length, 1);
    }
    const Py_UCS1 *text = PyUnicode_1BYTE_DATA(source), *word = PyUnicode_1BYTE_DATA(name);
    while (from >= 0 && from <= length - size) {
        const Py_UCS1 *at = memchr(text + from, word[0], (size_t)(length - size + 1 - from));
        if (at == NULL) {
            return -1;
        }
        if (at[size - 1] == word[size - 1] &&
            memcmp(at + 1, word + 1, (size_t)(size - 1)) == 0) {
            return at - text;
        }
        from = at - text + 1;
    }
    return -1;
}

/* The first match at or after ``from`` of ``name``, then whitespace, then ``(`` (or ``[``
 * with ``brackets``): its start, with its end in ``*end``; -1 for none, -2 with an
 * exception. */
static Py_ssize_t
next_call(PyObject *source, PyObject *name, int brackets, Py_ssize_t from, Py_ssize_t *end)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(source), size = PyUnicode_GET_LENGTH(name);
    int kind = PyUnicode_KIND(source);
    const void *data = PyUnicode_DATA(source);
    while (from <= length) {
        Py_ssize_t start = find_name(source, name, from);
        if (start < 0) {
            return start;
        }
        Py_ssize_t k = start + size;
        while (k < length && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k))) {
            k++;
        }
        if (k < length) {
            Py_UCS4 ch = PyUnicode_READ(kind, data, k);
            if (ch == '(' || (brackets && ch == '[')) {
                *end = k + 1;
                return start;
            }
        }
        from = start + 1;
    }
    return -1;
}

static PyObject *
has_text(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "has_text(source: str, text: str)");
        return NULL;
    }
    Py_ssize_t at = find_name(args[0], args[1], 0);
    return at == -2 ? NULL : PyBool_FromLong(at >= 0);
}

/* Whether ``name`` is a plain word: letters, digits and ``_`` (a Python name, the usual
 * case).  The regex's match of such a name followed by a bracket is then the whole word
 * before the bracket, which called_offsets finds from the brackets. */
static int
is_plain_word(PyObject *name)
{
    Py_ssize_t size = PyUnicode_GET_LENGTH(name);
    int kind = PyUnicode_KIND(name);
    const void *data = PyUnicode_DATA(name);
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (!Py_UNICODE_ISALNUM(ch) && ch != '_') {
            return 0;
        }
    }
    return size > 0;
}

/* Whether the match starting at ``start`` is a call of the name: not after a letter, a digit,
 * `_`, `.` or `def `. */
static int
starts_a_call(int kind, const void *data, Py_ssize_t start)
{
    Py_UCS4 before = start ? PyUnicode_READ(kind, data, start - 1) : ' ';
    if (Py_UNICODE_ISALNUM(before) || before == '_' || before == '.') {
        return 0;
    }
    return !(start >= 4 && PyUnicode_READ(kind, data, start - 4) == 'd' &&
             PyUnicode_READ(kind, data, start - 3) == 'e' &&
             PyUnicode_READ(kind, data, start - 2) == 'f' &&
             PyUnicode_READ(kind, data, start - 1) == ' ');
}

/* Append ``start`` to ``found``: 0, or -1 with an exception. */
static int
append_offset(PyObject *found, Py_ssize_t start)
{
    PyObject *offset = PyLong_FromSsize_t(start);
    int failed = offset == NULL || PyList_Append(found, offset) < 0;
    Py_XDECREF(offset);
    return failed ? -1 : 0;
}

/* called_offsets when every name is a plain word, in one pass over the text: at each `(`
 * (or `[`, for the commands), the word before it and the spaces between, looked up in the
 * names.  ``calls`` and ``commands`` are sets. */
static PyObject *
word_call_offsets(PyObject *source, PyObject *calls, PyObject *commands)
{
    Py_ssize_t length = PyUnicode_GET_LENGTH(source);
    int kind = PyUnicode_KIND(source), brackets = PySet_GET_SIZE(commands) > 0;
    const void *data = PyUnicode_DATA(source);
    PyObject *found = PyList_New(0);
    for (Py_ssize_t at = 0; found != NULL && at < length; at++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, at);
        if (ch != '(' && !(brackets && ch == '[')) {
            continue;
        }
        Py_ssize_t end = at;
        while (end > 0 && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1))) {
            end--;
        }
        Py_ssize_t start = end;
        while (start > 0) {
            Py_UCS4 before = PyUnicode_READ(kind, data, start - 1);
            if (!Py_UNICODE_ISALNUM(before) && before != '_') {
                break;
            }
            start--;
        }
        if (start == end || !starts_a_call(kind, data, start)) {
            continue;
        }
        PyObject *word = PyUnicode_Substring(source, start, end);
        int named = word == NULL ? -1 : PySet_Contains(commands, word);
        if (named == 0 && ch == '(') {
            named = PySet_Contains(calls, word);
        }
        Py_XDECREF(word);
        if (named < 0 || (named && append_offset(found, start) < 0)) {
            Py_CLEAR(found);
        }
    }
    return found;
}

#define STACK_NAMES 16
#define WORD_SCAN_NAMES 16 /* more names than this: word_call_offsets */

/* called_offsets for any names (the regex's own way): per name its next match, the leftmost
 * of all taken, the search going on from its end. */
static PyObject *
any_call_offsets(PyObject *source, PyObject *calls, PyObject *commands)
{
    Py_ssize_t ncalls = PyTuple_GET_SIZE(calls), count = ncalls + PyTuple_GET_SIZE(commands);
    /* Per name, its next match (-2: not searched from the position yet; -1: none left) and
     * that match's end: the leftmost match of all is the regex's, the first name on a tie
     * (its alternatives are tried in order), and the search goes on from its end. */
    Py_ssize_t stack[2 * STACK_NAMES], *next = stack;
    if (count > STACK_NAMES && (next = PyMem_New(Py_ssize_t, 2 * count)) == NULL) {
        return PyErr_NoMemory();
    }
    Py_ssize_t *ends = next + count;
    for (Py_ssize_t i = 0; i < count; i++) {
        next[i] = -2;
    }
    int kind = PyUnicode_KIND(source);
    const void *data = PyUnicode_DATA(source);
    PyObject *found = PyList_New(0);
    Py_ssize_t position = 0;
    while (found != NULL) {
        Py_ssize_t best = -1;
        for (Py_ssize_t i = 0; i < count; i++) {
            if (next[i] == -1) {
                continue;
            }
            if (next[i] < position) {
                PyObject *name = i < ncalls ? PyTuple_GET_ITEM(calls, i)
                                            : PyTuple_GET_ITEM(commands, i - ncalls);
                next[i] = next_call(source, name, i >= ncalls, position, &ends[i]);
                if (next[i] == -2) {
                    Py_CLEAR(found);
                    break;
                }
            }
            if (next[i] >= 0 && (best < 0 || next[i] < next[best])) {
                best = i;
            }
        }
        if (found == NULL || best < 0) {
            break;
        }
        Py_ssize_t start = next[best];
        position = ends[best];
        if (starts_a_call(kind, data, start) && append_offset(found, start) < 0) {
            Py_CLEAR(found);
        }
    }
    if (next != stack) {
        PyMem_Free(next);
    }
    return found;
}

static PyObject *
called_offsets(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyUnicode_Check(args[0]) || !PyTuple_Check(args[1]) ||
        !PyTuple_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "called_offsets(source: str, calls: tuple[str], commands: tuple[str])");
        return NULL;
    }
    PyObject *source = args[0], *calls = args[1], *commands = args[2];
    Py_ssize_t ncalls = PyTuple_GET_SIZE(calls), count = ncalls + PyTuple_GET_SIZE(commands);
    int by_words = count > WORD_SCAN_NAMES; /* (and every name a plain word) */
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = i < ncalls ? PyTuple_GET_ITEM(calls, i)
                                    : PyTuple_GET_ITEM(commands, i - ncalls);
        if (!PyUnicode_Check(name)) {
            PyErr_SetString(PyExc_TypeError, "called_offsets: the names are str");
            return NULL;
        }
        by_words = by_words && is_plain_word(name);
    }
    if (!by_words) {
        return any_call_offsets(source, calls, commands);
    }
    /* (A big file has a hundred helpers: one pass over its brackets, ~4 ns a character,
     * not one memchr per name, ~0.2 ns a character each: a cell's few stay with those.) */
    PyObject *call_set = PySet_New(calls), *command_set = PySet_New(commands), *found = NULL;
    if (call_set != NULL && command_set != NULL) {
        found = word_call_offsets(source, call_set, command_set);
    }
    Py_XDECREF(call_set);
    Py_XDECREF(command_set);
    return found;
}

/* ------------------------------------------------------------------------------------------ */

static PyMethodDef module_methods[] = {
    {"template_builder", template_builder, METH_VARARGS,
     "template_builder(layouts, cls): build(key, *values), the template of class cls laid out "
     "as layouts[key] with these values (template._python_template_builder in C)."},
    {"formatting_methods", formatting_methods, METH_VARARGS,
     "formatting_methods(cls, layout_cls): {'__str__': ..., '__format__': ...}, method "
     "descriptors for cls that format as its layouts' compiled f-strings do."},
    {"rewrite_simple", (PyCFunction)(void (*)(void))rewrite_simple, METH_FASTCALL,
     "rewrite_simple(source, builder, layout_key, patterns, calls, max_calls, field_by_field): "
     "_fast_path._python_rewrite_simple in C."},
    {"put_aside", (PyCFunction)(void (*)(void))put_aside, METH_FASTCALL,
     "put_aside(statements, imports_read, put_aside_names, module_names, helpers, unparsed, "
     "functions, returns, missing, forget_helper, other): the loop of "
     "check.flow.Analysis._python_put_aside in C."},
    {"call_at", (PyCFunction)(void (*)(void))call_at, METH_FASTCALL,
     "call_at(statement, line, column): check.flow._python_call_at in C."},
    {"rebound", rebound, METH_O, "rebound(body): check.flow._python_rebound in C."},
    {"dotted", dotted, METH_O, "dotted(node): check.flow._python_dotted in C."},
    {"places", (PyCFunction)(void (*)(void))places, METH_FASTCALL,
     "places(source, offsets): check.flow._python_places in C."},
    {"line_numbers", (PyCFunction)(void (*)(void))line_numbers, METH_FASTCALL,
     "line_numbers(source, offsets, every=False): check.flow._python_line_numbers in C."},
    {"import_bindings", (PyCFunction)(void (*)(void))import_bindings, METH_FASTCALL,
     "import_bindings(body, count): check.cell._python_import_bindings in C."},
    {"calls_in", (PyCFunction)(void (*)(void))calls_in, METH_FASTCALL,
     "calls_in(source, method_names, functions_match, heads): "
     "check.sinks.CallFinder._python_calls_in in C."},
    {"may_reach", (PyCFunction)(void (*)(void))may_reach, METH_FASTCALL,
     "may_reach(body, places, source, imports, tables, callbacks): the loop of "
     "check.flow.Analysis._may_reach in C."},
{"statements_on", (PyCFunction)(void (*)(void))statements_on, METH_FASTCALL,
     "statements_on(body, lines): check.flow._python_statements_on in C."},
    {"helper_statements", (PyCFunction)(void (*)(void))helper_statements, METH_FASTCALL,
     "helper_statements(body, lines): check.flow._python_helper_statements in C."},
    {"called_offsets", (PyCFunction)(void (*)(void))called_offsets, METH_FASTCALL,
     "called_offsets(source, calls, commands): check.flow._python_called_offsets in C."},
    {"has_text", (PyCFunction)(void (*)(void))has_text, METH_FASTCALL,
     "has_text(source, text): ``text in source`` (check.flow._python_has_text) in C."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ipy_istring._speedups",
    .m_doc = "C versions of ipy_istring's template builder and formatting, of the rewrite's "
             "fast path and of the cell check's tree walks.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (PyType_Ready(&TemplateBuilder_Type) < 0) {
        return NULL;
    }
    empty_tuple = PyTuple_New(0);
    if (empty_tuple == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&speedups_module);
    if (module == NULL) {
        return NULL;
    }
    str_span = PyUnicode_InternFromString("span");
    str_end = PyUnicode_InternFromString("end");
    str_next_istring = PyUnicode_InternFromString("next_istring");
    str_split_fields = PyUnicode_InternFromString("split_fields");
    str_match = PyUnicode_InternFromString("match");
    str_split = PyUnicode_InternFromString("split");
    int_one = PyLong_FromLong(1);
    int_minus_one = PyLong_FromLong(-1);
    call_separator = PyUnicode_FromString("), (");
    empty_str = PyUnicode_FromString("");
    if (!str_span || !str_end || !str_next_istring || !str_split_fields || !str_match ||
        !str_split || !int_one || !int_minus_one || !call_separator || !empty_str) {
        return NULL;
    }
        PyObject *public = Py_BuildValue("[ssssssssssssssss]", "call_at", "called_offsets",
                                     "calls_in", "dotted", "formatting_methods", "has_text",
                                     "helper_statements", "import_bindings", "line_numbers",
                                     "may_reach", "places", "put_aside", "rebound",
                                     "rewrite_simple", "statements_on", "template_builder");
    if (public == NULL || PyModule_AddObject(module, "__all__", public) < 0) {
        Py_XDECREF(public);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
