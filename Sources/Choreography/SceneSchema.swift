/// The JSON Schema (draft 2020-12) of scene files, as `smokescreen schema` prints it.
extension SceneDocument {
    /// The schema's text, ending with a newline. This is the one source: `docs/scene.schema.json` is a
    /// copy (`smokescreen schema > docs/scene.schema.json`), and a test checks that they are the same bytes.
    ///
    /// It describes the shape, the keys and the ranges a reader checks where they are written; what needs
    /// the whole file (names that must resolve, unique names, a spring's settling duration against the
    /// 600 s limit, images on disk) is `smokescreen check`'s alone.
    public static let schema = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://smokescreen.invalid/scene.schema.json",
  "title": "Smokescreen scene file",
  "description": "View trees (named states) and transitions between them, rendered by `smokescreen render scene.json`. Points everywhere; colours #RGB, #RRGGBB or #RRGGBBAA. Limits: 4 MiB, 10,000 views, 32 levels.",
  "type": "object",
  "additionalProperties": false,
  "required": ["size", "states", "transitions"],
  "properties": {
    "$schema": { "type": "string", "description": "Where editors find this schema (`smokescreen schema` prints it); ignored by Smokescreen." },
    "size": { "$ref": "#/$defs/size", "description": "The canvas, [width, height] in points." },
    "background": { "$ref": "#/$defs/color", "description": "The window behind both states. Default #FFFFFF." },
    "durations": { "type": "string", "description": "A durations plist, relative to this file, whose blocks override the phases' timings by phase name." },
    "assets": { "type": "string", "description": "The folder image names are relative to, relative to this file. Default: this file's folder." },
    "states": {
      "type": "object", "minProperties": 1,
      "additionalProperties": { "$ref": "#/$defs/view" },
      "description": "Named view trees; each root fills the canvas. View names must be unique within a state."
    },
    "transitions": { "type": "array", "minItems": 1, "maxItems": 1000, "items": { "$ref": "#/$defs/transition" } }
  },
  "$defs": {
    "size": { "type": "array", "items": { "type": "number", "exclusiveMinimum": 0, "maximum": 100000 }, "minItems": 2, "maxItems": 2 },
    "hexColor": { "type": "string", "pattern": "^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$" },
    "color": { "oneOf": [ { "$ref": "#/$defs/hexColor" },
                          { "type": "object", "additionalProperties": false, "required": ["light", "dark"],
                            "properties": { "light": { "$ref": "#/$defs/hexColor" }, "dark": { "$ref": "#/$defs/hexColor" } },
                            "description": "One colour for each appearance (render --appearance dark), as a dynamic UIColor." } ] },
    "view": {
      "type": "object",
      "additionalProperties": false,
      "not": { "required": ["fontSize", "textStyle"] },
      "properties": {
        "type": { "enum": ["view", "label", "image", "scroll"], "default": "view" },
        "name": { "type": "string", "description": "Identifies the view in transitions." },
        "frame": { "type": "array", "items": { "type": "number", "minimum": -100000, "maximum": 100000 }, "minItems": 4, "maxItems": 4,
                   "description": "[x, y, width, height] in the parent's coordinates (points)." },
        "backgroundColor": { "$ref": "#/$defs/color" },
        "alpha": { "type": "number", "minimum": 0, "maximum": 1, "default": 1 },
        "cornerRadius": { "type": "number", "minimum": 0, "default": 0 },
        "clipsToBounds": { "type": "boolean", "default": false },
        "hidden": { "type": "boolean", "default": false },
        "borderWidth": { "type": "number", "minimum": 0, "default": 0 },
        "borderColor": { "$ref": "#/$defs/color" },
        "text": { "type": "string", "maxLength": 4096, "description": "Labels only." },
        "fontSize": { "type": "number", "minimum": 1, "maximum": 1000, "default": 17 },
        "textStyle": { "enum": ["largeTitle", "title1", "title2", "title3", "headline", "body", "callout", "subheadline", "footnote", "caption1", "caption2"],
                       "description": "A label's Dynamic Type text style: its size at render --text-size (17 pt for body at large) instead of fontSize (not both); headline is semibold." },
        "bold": { "type": "boolean", "default": false },
        "tracking": { "type": "number", "minimum": -100, "maximum": 100,
                      "description": "Labels only: points added after each glyph (NSAttributedString.Key.tracking). Default: the system font's SF tracking for the size; 0 places glyphs where hb-view does." },
        "textColor": { "$ref": "#/$defs/color" },
        "lines": { "type": "integer", "minimum": 0, "maximum": 1000, "default": 1, "description": "0: no limit." },
        "alignment": { "enum": ["left", "center", "right", "natural"], "default": "natural", "description": "natural: left, or right when the first strong character is right to left." },
        "lineSpacing": { "type": "number", "minimum": 0, "maximum": 1000, "default": 0 },
        "image": { "type": "string", "description": "Image views only: name.png in the assets folder (@2x and @3x variants used at those scales)." },
        "contentMode": { "enum": ["scaleToFill", "scaleAspectFit", "scaleAspectFill", "redraw", "center", "top", "bottom", "left", "right",
                                  "topLeft", "topRight", "bottomLeft", "bottomRight"], "default": "scaleToFill" },
        "contentSize": { "type": "array", "items": { "type": "number", "minimum": 0 }, "minItems": 2, "maxItems": 2 },
        "contentOffset": { "type": "array", "items": { "type": "number" }, "minItems": 2, "maxItems": 2 },
        "constraints": { "type": "array", "maxItems": 10000,
                         "items": { "type": "string", "maxLength": 512,
                                    "pattern": "^ *[^ .=<>]+\\.(left|right|top|bottom|leading|trailing|width|height|centerX|centerY|firstBaseline|lastBaseline) *(==|<=|>=) *[^@]*(@ *[0-9.]+ *)?$" },
                         "description": "Auto Layout constraints on this view (`self`) and its subviews by name, e.g. \"card.leading == self.leading + 16\", \"card.height == 0.5 * card.width\", \"caption.top >= card.bottom + 8 @750\". A subview named in one that has no frame is laid out by them; one with a frame keeps it." },
        "cornerCurve": { "enum": ["circular", "continuous"], "default": "circular", "description": "continuous: iOS's corner, its curvature rising gradually from the sides." },
        "shadow": { "type": "object", "additionalProperties": false,
                    "properties": {
                      "color": { "$ref": "#/$defs/color", "description": "With its alpha as the shadow's opacity. Default #00000080." },
                      "offset": { "type": "array", "items": { "type": "number", "minimum": -10000, "maximum": 10000 }, "minItems": 2, "maxItems": 2, "description": "[dx, dy] points. Default [0, 3]." },
                      "radius": { "type": "number", "minimum": 0, "maximum": 1000, "default": 3, "description": "The blur's standard deviation, points (Core Animation's shadowRadius)." }
                    },
                    "description": "A layer shadow of what the view draws." },
        "material": { "enum": ["ultraThin", "thin", "regular", "thick", "chrome", "light", "extraLight", "dark", "extraDark",
                               "ultraThinDark", "thinDark", "regularDark", "thickDark", "chromeDark"],
                      "description": "What is behind the view blurred and tinted, as UIBlurEffect's materials (estimated numbers; docs/uikit.md). ultraThin…chrome follow the appearance; the …Dark ones and the pre-iOS 13 styles do not." },
        "rotation3D": { "type": "object", "additionalProperties": false,
                        "properties": {
                          "x": { "type": "number", "minimum": -3600, "maximum": 3600, "default": 0, "description": "Degrees about x." },
                          "y": { "type": "number", "minimum": -3600, "maximum": 3600, "default": 0, "description": "Degrees about y." },
                          "z": { "type": "number", "minimum": -3600, "maximum": 3600, "default": 0, "description": "Degrees about z." },
                          "perspective": { "type": "number", "minimum": 0, "maximum": 100000, "default": 0, "description": "The eye's distance, points (m34 = -1/d); 0: none." },
                          "anchor": { "type": "array", "items": { "type": "number", "minimum": -100, "maximum": 100 }, "minItems": 2, "maxItems": 2, "description": "[x, y] in units of the bounds. Default [0.5, 0.5]." }
                        },
                        "description": "A 3-D turn about the anchor, x then y then z, in perspective." },
        "gradient": { "type": "object", "additionalProperties": false, "required": ["colors"],
                      "properties": {
                        "type": { "enum": ["axial", "radial", "conic"], "default": "axial" },
                        "colors": { "type": "array", "minItems": 1, "maxItems": 256, "items": { "$ref": "#/$defs/color" } },
                        "locations": { "type": "array", "maxItems": 256, "items": { "type": "number", "minimum": -100, "maximum": 100 }, "description": "One per colour, 0…1; default evenly spaced." },
                        "start": { "type": "array", "items": { "type": "number", "minimum": -100, "maximum": 100 }, "minItems": 2, "maxItems": 2, "description": "Unit coordinates. Default [0.5, 0]." },
                        "end": { "type": "array", "items": { "type": "number", "minimum": -100, "maximum": 100 }, "minItems": 2, "maxItems": 2, "description": "Unit coordinates. Default [0.5, 1]." }
                      },
                      "description": "Views of type view only: a CAGradientLayer's gradient over the background." },
        "shape": { "type": "object", "additionalProperties": false, "required": ["path"],
                   "properties": {
                     "path": { "type": "string", "maxLength": 1048576, "description": "SVG path data (M, L, H, V, C, S, Q, T, A, Z and their relative forms) in the view's coordinates, points." },
                     "fillColor": { "$ref": "#/$defs/color", "description": "Default #000000; a transparent colour fills nothing." },
                     "fillRule": { "enum": ["nonZero", "evenOdd"], "default": "nonZero" },
                     "strokeColor": { "$ref": "#/$defs/color", "description": "Default none." },
                     "lineWidth": { "type": "number", "minimum": 0, "maximum": 100000, "default": 1, "description": "Points." },
                     "lineCap": { "enum": ["butt", "round", "square"], "default": "butt" },
                     "lineJoin": { "enum": ["miter", "round", "bevel"], "default": "miter" },
                     "miterLimit": { "type": "number", "minimum": 0, "maximum": 1000, "default": 10 },
                     "dash": { "type": "array", "maxItems": 64, "items": { "type": "number", "minimum": 0, "maximum": 100000 }, "description": "Dash and gap lengths, points." },
                     "dashPhase": { "type": "number", "minimum": -100000, "maximum": 100000, "default": 0 },
                     "strokeStart": { "type": "number", "minimum": 0, "maximum": 1, "default": 0 },
                     "strokeEnd": { "type": "number", "minimum": 0, "maximum": 1, "default": 1 }
                   },
                   "description": "Views of type view only: a CAShapeLayer's filled and stroked path over the background." },
        "mask": { "type": "object", "additionalProperties": false, "required": ["path"],
                  "properties": {
                    "path": { "type": "string", "maxLength": 1048576, "description": "SVG path data in the view's coordinates, points." },
                    "fillRule": { "enum": ["nonZero", "evenOdd"], "default": "nonZero" }
                  },
                  "description": "The view (background, content, subviews) shows only inside the path, as a layer mask." },
        "subviews": { "type": "array", "items": { "$ref": "#/$defs/view" } }
      }
    },
    "phase": {
      "type": "object", "additionalProperties": false, "required": ["name"],
      "properties": {
        "name": { "type": "string" },
        "duration": { "type": "number", "minimum": 0, "maximum": 600, "description": "Seconds. Required, except with a spring that has its own duration (iOS 17's), which forbids it." },
        "delay": { "type": "number", "minimum": 0, "maximum": 600, "default": 0 },
        "curve": {
          "oneOf": [
            { "enum": ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"] },
            { "type": "array", "minItems": 4, "maxItems": 4, "description": "x1 y1 x2 y2, x in 0…1, y in -1000…1000",
              "prefixItems": [
                { "type": "number", "minimum": 0, "maximum": 1 }, { "type": "number", "minimum": -1000, "maximum": 1000 },
                { "type": "number", "minimum": 0, "maximum": 1 }, { "type": "number", "minimum": -1000, "maximum": 1000 }
              ] },
            { "type": "object", "additionalProperties": false, "required": ["spring"], "properties": { "spring": { "$ref": "#/$defs/spring" } } }
          ],
          "default": "easeInEaseOut"
        }
      },
      "if": { "properties": { "curve": { "type": "object", "properties": { "spring": { "required": ["duration"] } } } }, "required": ["curve"] },
      "then": { "not": { "required": ["duration"] } },
      "else": { "required": ["duration"] }
    },
    "spring": {
      "description": "UIKit's animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:): dampingRatio, settling by the phase's duration; or iOS 17's animate(springDuration:bounce:initialSpringVelocity:): duration (perceptual, seconds) and bounce, the phase lasting until the spring settles. Velocities are distances per second (1: the whole distance in one second).",
      "type": "object", "additionalProperties": false,
      "properties": {
        "dampingRatio": { "type": "number", "minimum": 0.01, "maximum": 100, "description": "1: critically damped; below 1 it oscillates." },
        "initialVelocity": { "type": "number", "minimum": -1000, "maximum": 1000, "default": 0 },
        "duration": { "type": "number", "exclusiveMinimum": 0, "maximum": 600, "description": "The perceptual duration, seconds (iOS 17)." },
        "bounce": { "type": "number", "exclusiveMinimum": -1, "exclusiveMaximum": 1, "default": 0, "description": "0: no bounce; towards 1 bouncier; below 0 over-damped (iOS 17)." }
      },
      "oneOf": [
        { "required": ["dampingRatio"], "not": { "anyOf": [{ "required": ["duration"] }, { "required": ["bounce"] }] } },
        { "required": ["duration"], "not": { "required": ["dampingRatio"] } }
      ]
    },
    "effect": {
      "oneOf": [
        { "const": "fade" },
        { "type": "object", "additionalProperties": false, "required": ["fade"], "properties": { "fade": { "type": "boolean" } } },
        { "type": "object", "additionalProperties": false, "required": ["slide"],
          "properties": { "slide": { "type": "array", "items": { "type": "number" }, "minItems": 2, "maxItems": 2, "description": "[dx, dy] points" } } },
        { "type": "object", "additionalProperties": false, "required": ["scale"],
          "properties": { "scale": { "type": "number", "minimum": 0, "maximum": 100 } } },
        { "type": "object", "additionalProperties": false, "required": ["slideAway"],
          "properties": { "slideAway": { "type": "object", "additionalProperties": false, "required": ["from"],
            "properties": { "from": { "type": "string" }, "above": { "type": "number", "minimum": 0 }, "below": { "type": "number", "minimum": 0 } } } } }
      ]
    },
    "transition": {
      "type": "object", "additionalProperties": false, "required": ["name", "from", "to", "phases"],
      "properties": {
        "name": { "type": "string", "pattern": "^[A-Za-z0-9_-]+$", "maxLength": 100 },
        "reversedName": { "type": "string", "pattern": "^[A-Za-z0-9_-]+$", "maxLength": 100 },
        "summary": { "type": "string" },
        "from": { "type": "string", "description": "A state name." },
        "to": { "type": "string", "description": "A state name." },
        "phases": { "type": "array", "minItems": 1, "maxItems": 100, "items": { "$ref": "#/$defs/phase" } },
        "matched": {
          "type": "array",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["phase"],
            "properties": {
              "id": { "type": "string", "description": "The same view name in both states." },
              "from": { "type": "string" }, "to": { "type": "string" },
              "phase": { "type": "string" },
              "style": { "enum": ["snapshot", "liveImage", "text", "opaqueCrossFade"], "default": "snapshot" }
            }
          }
        },
        "unmatched": {
          "type": "array",
          "items": {
            "type": "object", "additionalProperties": false, "required": ["phase", "effects"],
            "properties": {
              "views": { "type": "array", "items": { "type": "string" } },
              "subviewsOf": { "type": "string" },
              "phase": { "type": "string" },
              "cascade": { "type": "number", "minimum": 0, "maximum": 10, "default": 0 },
              "effects": { "type": "array", "minItems": 1, "maxItems": 16, "items": { "$ref": "#/$defs/effect" } }
            }
          }
        },
        "onTop": { "type": "array", "items": { "type": "string" } },
        "gesture": {
          "description": "A back swipe that drives the transition instead of the clock: its progress is the translation over the canvas width; on release it finishes when the translation projected with the release velocity passes half the width, else cancels.",
          "type": "object", "additionalProperties": false, "required": ["samples"],
          "properties": {
            "start": { "type": "number", "minimum": 0, "default": 0.2, "description": "seconds before the swipe starts" },
            "samples": {
              "type": "array", "minItems": 2, "maxItems": 10000,
              "items": { "type": "array", "minItems": 2, "maxItems": 2, "items": { "type": "number" },
                         "description": "[seconds from the start of the swipe, points moved right]; times never go back" }
            }
          }
        }
      }
    }
  }
}

"""#
}
