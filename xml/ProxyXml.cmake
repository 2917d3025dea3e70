# Writes the server-manager XML of the Shallow Water source and solver into the build tree.
# Both proxies carry the shared properties of CommonProperties.xml.in in full, rather than
# inherit them from a base proxy, because ParaView's help pages (the "?" button) list only the
# properties written in a proxy's own XML. Sets SWE_PROXY_XMLS to the generated files.
set(swe_xml_dir "${CMAKE_CURRENT_LIST_DIR}")
set(swe_xml_inputs
  "${swe_xml_dir}/CommonProperties.xml.in" "${swe_xml_dir}/Boundary.xml.in"
  "${swe_xml_dir}/Representation.xml.in")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${swe_xml_inputs})

file(READ "${swe_xml_dir}/Boundary.xml.in" swe_boundary_template)
set(SWE_BOUNDARIES "")
foreach(SIDE West East South North)
  string(TOLOWER "${SIDE}" side)
  string(CONFIGURE "${swe_boundary_template}" swe_one_boundary @ONLY)
  string(APPEND SWE_BOUNDARIES "${swe_one_boundary}")
endforeach()
file(READ "${swe_xml_dir}/CommonProperties.xml.in" swe_common_template)
file(READ "${swe_xml_dir}/Representation.xml.in" swe_representation_template)

# The decorator that greys out a Green-Ampt constant (Suction Head, Moisture Deficit) while it is
# not used: while Green-Ampt is off, that is Hydraulic Conductivity is 0 (and, in the Solver, no
# conductivity array is chosen), or, in the Solver, while its soil array replaces it. A constant
# that is not 0 stays editable: a run refuses it without a conductivity, and the user must be able
# to set it back to 0.
function(swe_soil_constant_in_use proxy constant soil_array out_var)
  set(decorator "<PropertyWidgetDecorator type=\"GenericDecorator\" mode=\"enabled_state\"")
  set(conductivity_on "${decorator} property=\"HydraulicConductivity\" value=\"0\" inverse=\"1\"/>")
  set(constant_set "${decorator} property=\"${constant}\" value=\"0\" inverse=\"1\"/>")
  if(proxy STREQUAL "ShallowWaterSource")
    set(in_use "${conductivity_on}")
  else()
    set(in_use "<Expression type=\"and\">
                <Expression type=\"or\">
                  ${conductivity_on}
                  ${decorator} property=\"HydraulicConductivityArray\" value=\"None\" inverse=\"1\"/>
                </Expression>
                ${decorator} property=\"${soil_array}\" value=\"None\"/>
              </Expression>")
  endif()
  set(${out_var} "          <PropertyWidgetDecorator type=\"CompositeDecorator\">
            <Expression type=\"or\">
              ${in_use}
              ${constant_set}
            </Expression>
          </PropertyWidgetDecorator>" PARENT_SCOPE)
endfunction()

set(SWE_PROXY_XMLS "")
# proxy file name; the scheme its Scheme property starts with (0 Lax-Friedrichs, 2
# MUSCL-Hancock), its Manning coefficient, End Time and Output Interval. The source's analytic
# scenarios are frictionless and over in 20 s; a DEM gets a natural channel's roughness and the
# two minutes the example valley's flood takes to reach its outlet (about 80 s with n = 0.03).
foreach(proxy_defaults "ShallowWaterSource;0;0;20;0.5" "ShallowWaterSolver;2;0.03;120;2")
  list(GET proxy_defaults 0 proxy)
  list(GET proxy_defaults 1 SWE_DEFAULT_SCHEME)
  list(GET proxy_defaults 2 SWE_DEFAULT_MANNING)
  list(GET proxy_defaults 3 SWE_DEFAULT_END_TIME)
  list(GET proxy_defaults 4 SWE_DEFAULT_OUTPUT_INTERVAL)
  swe_soil_constant_in_use(${proxy} SuctionHead SuctionHeadArray SWE_SUCTION_HEAD_IN_USE)
  swe_soil_constant_in_use(${proxy} MoistureDeficit MoistureDeficitArray
    SWE_MOISTURE_DEFICIT_IN_USE)
  string(CONFIGURE "${swe_common_template}" SWE_COMMON_PROPERTIES @ONLY)
  string(CONFIGURE "${swe_representation_template}" SWE_REPRESENTATION_HINTS @ONLY)
  set(xml_file "${CMAKE_CURRENT_BINARY_DIR}/xml/${proxy}.xml")
  set(before "")
  if(EXISTS "${xml_file}")
    file(READ "${xml_file}" before)
  endif()
  configure_file("${swe_xml_dir}/${proxy}.xml.in" "${xml_file}" @ONLY)
  file(READ "${xml_file}" after)
  if(NOT before STREQUAL after)
    set(swe_xml_changed TRUE)
  endif()
  list(APPEND SWE_PROXY_XMLS "${xml_file}")
endforeach()

# The GeoTIFF writer's proxy, as it is.
list(APPEND SWE_PROXY_XMLS "${swe_xml_dir}/GeoTiffWriter.xml")

# ParaView 5.11 regenerates a plugin's help only when its list of XML files changes, not their
# text: drop the help built from older XML, so that the build makes it again.
if(swe_xml_changed)
  file(GLOB swe_stale_help "${CMAKE_BINARY_DIR}/plugin/paraview_help/*"
    "${CMAKE_BINARY_DIR}/plugin/*_qch.h")
  if(swe_stale_help)
    file(REMOVE ${swe_stale_help})
  endif()
endif()
